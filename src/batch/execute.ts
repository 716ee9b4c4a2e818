/**
 * The ordering pass of a batch: each line's order journaled and sent at its own quote's price, at most
 * `concurrency` at once over the client's one keep-alive pool. A line refused because the price moved is
 * quoted again once, and placed if the difference still fits in what was consented to; any other failure
 * is that line's alone (the rest stand).
 */
import { orderRequestBody, type EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { ApiError, CliError } from '../domain/errors.js';
import { ConflictError } from '../domain/cli-errors.js';
import type { OrderJournal } from '../journal/order-journal.js';
import { addAmounts, compareAmounts, subtractAmounts } from '../domain/money.js';
import { readServerClock, type ServerClock } from '../ordering/server-clock.js';
import { sendJournaled, type OrderSender } from '../ordering/send-journaled.js';
import { ELSEWHERE_WINDOW_MS, beforeLookBack, lineBehindConflict, type LookBack } from './existing-order.js';
import { unfundedError, type LinesFit } from './fit-lines.js';
import type { BatchLine } from './parse-line.js';
import { plannedId, type BatchPlan, type LinePlan } from './plan.js';
import { runPool } from '../domain/pool.js';
import { batchLines, type BatchSource } from './source.js';

export type LineStatus = 'created' | 'existing' | 'failed' | 'skipped';

/** One input line's result, as printed (NDJSON with --json). */
export interface LineResult {
  line: number;
  client_request_id: string;
  status: LineStatus;
  order: Order | null;
  /** For a skipped line: the order an earlier run placed. */
  order_id: string | null;
  error: { exit_code: number; message: string } | null;
}

export interface BatchRun {
  source: BatchSource;
  plan: BatchPlan;
  client: EnergyClient;
  journal: OrderJournal;
  sender: OrderSender;
  concurrency: number;
  /** --place-what-fits: the lines the balance covers, and those it does not. */
  fit?: LinesFit | undefined;
  /** The most this run may spend: --max-total, or the consented total. */
  cap: string;
  stopped: () => boolean;
  onResult: (result: LineResult) => Promise<void>;
}

export interface BatchSummary {
  counts: Record<LineStatus, number>;
  /** Lines not reached because the run was stopped. */
  notReached: number;
  /** Total of the orders this run created. */
  spent: string;
}

export async function executeBatch(run: BatchRun): Promise<BatchSummary> {
  const summary: BatchSummary = {
    counts: { created: 0, existing: 0, failed: 0, skipped: 0 },
    notReached: 0,
    spent: '0.000000',
  };
  // Price rises are paid from the room between the planned total and the cap, never beyond it.
  let room = subtractAmounts(run.cap, run.fit?.total ?? run.plan.total);
  const reprice = (from: string, to: string): boolean => {
    const next = subtractAmounts(addAmounts(room, from), to);
    if (compareAmounts(next, '0.000000') < 0) return false;
    room = next;
    return true;
  };
  // Read at the first 409 only, once: the look-back is the same for every host whatever its own clock says.
  let serverClock: Promise<ServerClock> | undefined;
  const elsewhereSince = async (): Promise<number> => {
    serverClock ??= readServerClock(run.client, Date.now);
    return (await serverClock).nowMs() - ELSEWHERE_WINDOW_MS;
  };
  const shared: SharedByLines = { reprice, elsewhereSince };
  await runPool(
    batchLines(run.source),
    run.concurrency,
    async (line) => {
      const result = await placeLine(run, line, shared);
      summary.counts[result.status] += 1;
      if (result.status === 'created' && result.order !== null)
        summary.spent = addAmounts(summary.spent, result.order.total_trx);
      await run.onResult(result);
    },
    run.stopped,
  );
  const done = Object.values(summary.counts).reduce((a, b) => a + b, 0);
  summary.notReached = run.source.orderCount - done;
  return summary;
}

/** What every line of one run shares. */
interface SharedByLines extends LookBack {
  /** Pays a line's price rise from the room left under the cap; false when it does not fit. */
  reprice: (from: string, to: string) => boolean;
}

async function placeLine(run: BatchRun, line: BatchLine, shared: SharedByLines): Promise<LineResult> {
  const plan = run.plan.lines.get(line.line);
  if (plan === undefined) throw new Error(`batch line ${line.line} has no plan`);
  const id = plannedId(run.source, line, plan);
  const result = (status: LineStatus, fields: Partial<LineResult> = {}): LineResult => ({
    line: line.line,
    client_request_id: id,
    status,
    order_id: fields.order_id ?? null,
    order: fields.order ?? null,
    error: fields.error ?? null,
  });
  if (plan.kind === 'skip') return result('skipped', { order_id: plan.orderId });
  if (plan.kind === 'new' && run.fit?.unfunded.has(line.line) === true) {
    const { exitCode, message } = unfundedError(plan.total, run.fit);
    return result('failed', { error: { exit_code: exitCode, message } });
  }
  const failed = (error: CliError) =>
    result('failed', { error: { exit_code: error.exitCode, message: error.message } });
  try {
    const { order, created } = await send(run, line, id, plan, shared.reprice);
    if (created) return result('created', { order, order_id: order.id });
    // A journaled request of this machine's is its own purchase however old; an order met anew may not be.
    const stale = plan.kind === 'new' ? await beforeLookBack(line, order, shared) : undefined;
    return stale === undefined ? result('existing', { order, order_id: order.id }) : failed(stale);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    // Another host (or state folder) ran this file and placed this line already, at another price.
    const found = await lineBehindConflict(run.client, line, id, error, shared);
    if (found === undefined) return failed(error);
    if (found instanceof CliError) return failed(found);
    const stale = await beforeLookBack(line, found, shared);
    return stale === undefined ? result('existing', { order: found, order_id: found.id }) : failed(stale);
  }
}

async function send(
  run: BatchRun,
  line: BatchLine,
  id: string,
  plan: Exclude<LinePlan, { kind: 'skip' }>,
  reprice: (from: string, to: string) => boolean,
) {
  if (plan.kind === 'resend') return sendJournaled(run.sender, plan.record);
  try {
    return await sendAt(run, line, id, plan.total);
  } catch (error) {
    if (!(error instanceof ApiError && error.problem?.code === 'PRICE_CHANGED')) throw error;
    const quote = await run.client.quote({ address: line.address, energy: line.energy, duration_hours: line.hours });
    if (!reprice(plan.total, quote.total_trx)) {
      throw new ConflictError(
        `the price moved from ${plan.total} to ${quote.total_trx} TRX, beyond the total consented to: not placed`,
      );
    }
    return sendAt(run, line, id, quote.total_trx);
  }
}

async function sendAt(run: BatchRun, line: BatchLine, id: string, total: string) {
  const body = orderRequestBody({
    client_request_id: id,
    address: line.address,
    energy: line.energy,
    duration_hours: line.hours,
    expected_total_trx: total,
  });
  // Not fresh: another run journaled this id a moment ago; its bytes are the ones to send.
  const { record } = await run.journal.begin(id, body);
  return sendJournaled(run.sender, record);
}
