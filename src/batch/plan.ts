/**
 * The quoting pass of a batch: what each line will cost, before any consent is asked. A line whose id the
 * journal already settled with an order is skipped (a re-run buys nothing twice); one whose outcome is
 * unknown is resent with its journaled bytes; every other line gets a quote. A line's journal record is
 * looked for under its id, then under the id an earlier version gave it (line-identity.ts).
 */
import type { EnergyClient } from '../client/client.js';
import { CliError } from '../domain/errors.js';
import { ContextualError } from '../domain/cli-errors.js';
import type { OrderJournal } from '../journal/order-journal.js';
import { mayHaveOrder, orderIdOf, recordedOrder, type JournalRecord } from '../journal/record.js';
import { addAmounts } from '../domain/money.js';
import { clause } from '../domain/printable.js';
import { refuseOtherParameters } from '../ordering/reused-id.js';
import type { BatchLine } from './parse-line.js';
import { legacyRequestId, lineRequestId } from './line-identity.js';
import { runPool } from '../domain/pool.js';
import { batchLines, type BatchSource } from './source.js';

/**
 * What to do with a line. `legacyId` when the line goes under the id an earlier version gave it; else its
 * id is lineRequestId's (computed again where needed rather than kept: a plan holds every line of the file).
 */
export type LinePlan = { legacyId?: string } & (
  | { kind: 'skip'; orderId: string }
  | { kind: 'resend'; record: JournalRecord; total: string }
  | { kind: 'new'; total: string; canAfford: boolean }
);

/** The client_request_id a planned line goes under. */
export function plannedId(source: BatchSource, line: BatchLine, plan: LinePlan): string {
  return plan.legacyId ?? lineRequestId(source, line);
}

export interface BatchPlan {
  /** By line number. */
  lines: Map<number, LinePlan>;
  /** What the lines to send may cost in all (quotes, and the journaled totals of resends). */
  total: string;
  counts: Record<LinePlan['kind'], number>;
  /** What the new lines' quotes add up to (a resend may be an order already paid for). */
  quotedTotal: string;
  /** Some line's quote said `can_afford: false`. */
  quoteRefused: boolean;
}

export async function planBatch(
  source: BatchSource,
  client: EnergyClient,
  journal: OrderJournal,
  concurrency: number,
): Promise<BatchPlan> {
  const plan: BatchPlan = {
    lines: new Map(),
    total: '0.000000',
    counts: { skip: 0, resend: 0, new: 0 },
    quotedTotal: '0.000000',
    quoteRefused: false,
  };
  const legacy = await legacyIdsInUse(source, journal);
  await runPool(batchLines(source), concurrency, async (line) => {
    const linePlan = await planLine(source, client, journal, line, legacy);
    plan.lines.set(line.line, linePlan);
    plan.counts[linePlan.kind] += 1;
    if (linePlan.kind !== 'skip') plan.total = addAmounts(plan.total, linePlan.total);
    if (linePlan.kind === 'new') {
      plan.quotedTotal = addAmounts(plan.quotedTotal, linePlan.total);
      if (!linePlan.canAfford) plan.quoteRefused = true;
    }
  });
  return plan;
}

async function planLine(
  source: BatchSource,
  client: EnergyClient,
  journal: OrderJournal,
  line: BatchLine,
  legacy: boolean,
): Promise<LinePlan> {
  const { record, legacyId } = await journaled(source, journal, line, legacy);
  const under = legacyId === undefined ? {} : { legacyId };
  if (record !== undefined && mayHaveOrder(record)) {
    refuseOtherParameters(record, line, {
      where: `${source.label}, line ${line.line}`,
      hint: 'give the line a new client_request_id for a different order',
    });
    const orderId = orderIdOf(record);
    if (orderId !== undefined) return { ...under, kind: 'skip', orderId };
    return { ...under, kind: 'resend', record, total: recordedOrder(record).expected_total_trx };
  }
  try {
    const quote = await client.quote({ address: line.address, energy: line.energy, duration_hours: line.hours });
    return { kind: 'new', total: quote.total_trx, canAfford: quote.can_afford };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new ContextualError(
      `${source.label}, line ${line.line}: ${clause(error.message)}: nothing was bought`,
      error,
      {
        hint: error.hint,
      },
    );
  }
}

/** The line's record: under its own id, else (with an order, or pending) under the id it had earlier. */
async function journaled(
  source: BatchSource,
  journal: OrderJournal,
  line: BatchLine,
  legacyInUse: boolean,
): Promise<{ record: JournalRecord | undefined; legacyId?: string }> {
  const record = await journal.find(lineRequestId(source, line));
  const legacyId = record === undefined && legacyInUse ? legacyRequestId(source, line) : undefined;
  const legacy = legacyId === undefined ? undefined : await journal.find(legacyId);
  if (legacyId !== undefined && legacy !== undefined && mayHaveOrder(legacy)) return { record: legacy, legacyId };
  return { record };
}

/** Lines an earlier version would have started before any later one: its pool took lines in file order. */
const LEGACY_SAMPLE = 32;

/**
 * Whether an earlier version journaled this very file (its ids are the file's hash and a line number): it
 * did if it journaled any of the first lines without an id, since it started them in file order, at most
 * 32 at once. Asked once, so that a batch no earlier version ran (nearly all) looks each line up under
 * one id only: two more files that are not there, a line, for every line of a 100,000-line batch.
 */
async function legacyIdsInUse(source: BatchSource, journal: OrderJournal): Promise<boolean> {
  let sampled = 0;
  for await (const line of batchLines(source)) {
    const legacyId = legacyRequestId(source, line);
    if (legacyId === undefined) continue;
    if ((await journal.find(legacyId)) !== undefined) return true;
    if ((sampled += 1) >= LEGACY_SAMPLE) return false;
  }
  return false;
}
