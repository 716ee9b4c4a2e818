/**
 * The whole of `energy order batch` after its options are parsed: snapshot the input, check every line,
 * quote, one consent for the sum, then order at bounded concurrency, each line journaled under its
 * identity (line-identity.ts), so a re-run of the batch, grown or not, buys no line twice. Printing is the
 * caller's (results, notes, progress).
 */
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import type { EnergyClient } from '../client/client.js';
import { UsageError } from '../domain/errors.js';
import { ContextualError, InterruptedError, SomeFailedError } from '../domain/cli-errors.js';
import { addAmounts } from '../domain/money.js';
import { monotonicMs } from '../domain/monotonic.js';
import { counted } from '../domain/text-forms.js';
import type { OrderJournal } from '../journal/order-journal.js';
import { refuseUnaffordable } from '../ordering/afford.js';
import { refuseAboveMax, requireConsent, type ConsentInput } from '../ordering/consent.js';
import { executeBatch, type LineResult } from './execute.js';
import { showPlan, type PlannedLine } from './show-plan.js';
import { fitLines, type LinesFit } from './fit-lines.js';
import type { BatchFormat } from './parse-line.js';
import { planBatch, type BatchPlan } from './plan.js';
import { refuseContractLines } from './receivers.js';
import type { TronNode } from '../tron/tron-node.js';
import { checkBatch, openInput, type BatchSource } from './source.js';

export interface BatchRequest {
  /** A file name, or `-` for standard input. */
  file: string;
  format: BatchFormat | undefined;
  concurrency: number;
  yes: boolean;
  maxTotal: string | undefined;
  dryRun: boolean;
  /** Place, in the file's order, the lines the balance covers (the rest fail unsent) instead of refusing them all. */
  placeWhatFits: boolean;
}

export interface BatchDeps {
  client: EnergyClient;
  journal: OrderJournal;
  confirm: ConsentInput['confirm'];
  stdin: Readable & { isTTY?: boolean };
  /** Where standard input (or the file) is copied for the run. */
  spoolDir: string;
  interrupt: AbortSignal | undefined;
  note: (line: string) => void;
  /** The TRON node to ask whether a receiver is a contract, when one is configured; else undefined. */
  receiverNode: () => Promise<TronNode | undefined>;
  progress: (line: string) => void;
  onResult: (result: LineResult) => Promise<void>;
  onPlannedLine: (line: PlannedLine) => Promise<void>;
  /** Waits until every row given so far is written: the summary on stderr comes after the rows it sums up. */
  flush: () => Promise<void>;
  recoverCommand: (clientRequestId: string) => string;
  /** The command line that runs this batch again with --yes. */
  rerunCommand: string;
}

export async function runBatch(deps: BatchDeps, request: BatchRequest): Promise<void> {
  const { client, journal } = deps;
  const fromTerminal = request.file === '-' && deps.stdin.isTTY === true;
  // The terminal's input ends at Ctrl-D: the consent question could not be read from it afterwards.
  if (fromTerminal && !request.yes && !request.dryRun)
    throw new UsageError('order batch - reads the orders from this terminal, so it cannot ask for consent there', {
      hint: 'add --yes to accept the sum of the quotes (and --max-total to cap it), or --dry-run to see it first',
    });
  const catalog = await client.options();
  const rules = {
    energyPerPortion: catalog.energy_per_portion,
    maxEnergy: catalog.max_energy,
    hours: catalog.duration_hours,
  };
  // `cat` and `jq` wait in silence; a person who typed `order batch -` may not know a terminal is read.
  if (fromTerminal)
    deps.note('energy: reading order lines from standard input (the terminal) until Ctrl-D on a line of its own…');
  const input = await openInput(request.file, deps.stdin, deps.spoolDir, deps.interrupt);
  try {
    // A stream has no name of its own (`<(…)` is /dev/fd/63 today, 62 tomorrow): its lines are named as stdin's.
    const name = input.stream ? 'stdin' : basename(request.file);
    const source = await checkBatch({ ...input, name }, rules, request.format, (error) =>
      deps.note(`energy: ${error.source}, line ${error.line}: ${error.problem}`),
    );
    await refuseContractLines(source, deps.receiverNode, deps.note, request.concurrency);
    const plan = await planBatch(source, client, journal, request.concurrency);
    if (request.dryRun) return await showPlan(deps, request, source, plan);
    const fit = request.placeWhatFits && plan.counts.new > 0 ? await fitLines(source, plan, client) : undefined;
    const total = fit?.total ?? plan.total;
    await refuseAboveMax(total, request.maxTotal, 'the batch total');
    const unfunded = fit?.unfunded.size ?? 0;
    const toSend = plan.counts.new + plan.counts.resend - unfunded;
    // Only new lines: a resend of an order that was placed costs nothing more, and must stay possible.
    if (plan.counts.new > 0 && !request.placeWhatFits) {
      await refuseUnaffordable(deps.client, {
        total: plan.quotedTotal,
        quoteRefused: plan.quoteRefused,
        quotes: plan.counts.new,
        hint: 'add TRX to the balance, or add --place-what-fits to place the lines it covers',
      });
    }
    await requireConsent({
      confirm: deps.confirm,
      given: request.yes || toSend === 0,
      details: [
        `${source.label}: ${counted(source.orderCount, 'line')}: ${plan.counts.new - unfunded} to order, ${plan.counts.resend} to resend (outcome unknown), ${plan.counts.skip} already ordered` +
          (unfunded > 0 ? `, ${unfunded} the balance cannot pay (they fail, unsent)` : ''),
      ],
      question: `Place ${counted(toSend, 'order')} for ${total} TRX in all?`,
      refusal: `not placing ${counted(toSend, 'order')} for ${total} TRX without consent`,
      hint: 'add --yes to accept the sum of the quotes (and --max-total to cap it)',
      note: deps.note,
    });
    await place(deps, request, source, plan, fit);
  } finally {
    input.cleanup();
  }
}

async function place(
  deps: BatchDeps,
  request: BatchRequest,
  source: BatchSource,
  plan: BatchPlan,
  fit: LinesFit | undefined,
): Promise<void> {
  const { client, journal } = deps;
  // The rate on the monotonic clock: a host clock that steps mid-batch says nothing of its speed.
  const started = monotonicMs();
  let done = 0;
  let spent = '0.000000';
  const summary = await executeBatch({
    source,
    plan,
    client,
    journal,
    sender: { client, journal, recoverCommand: deps.recoverCommand },
    concurrency: request.concurrency,
    fit,
    cap: request.maxTotal ?? fit?.total ?? plan.total,
    stopped: () => deps.interrupt?.aborted === true,
    onResult: async (result) => {
      done += 1;
      if (result.status === 'created' && result.order !== null) spent = addAmounts(spent, result.order.total_trx);
      await deps.onResult(result);
      const rate = done / Math.max((monotonicMs() - started) / 1000, 0.001);
      deps.progress(`batch: ${done}/${counted(source.orderCount, 'line')}, ${rate.toFixed(1)}/s, ${spent} TRX spent`);
    },
  });
  await deps.flush();
  const { counts } = summary;
  deps.note(
    `energy: batch ${source.label}: ${counts.created} created, ${counts.existing} existing, ${counts.skipped} skipped, ${counts.failed} failed` +
      `${summary.notReached > 0 ? `, ${summary.notReached} not reached` : ''}; ${summary.spent} TRX in new orders`,
  );
  if (counts.skipped > 0) deps.note(skippedNote(counts.skipped, source));
  const rerun = `re-run the same file to finish (no line is bought twice): ${deps.rerunCommand}${request.file === '-' ? ' < the same input' : ''}`;
  const interrupted: unknown = deps.interrupt?.reason;
  if (deps.interrupt?.aborted === true && interrupted instanceof InterruptedError) {
    throw new ContextualError(
      `${interrupted.message}: the orders in flight finished and are journaled; ${counted(summary.notReached, 'line')} not reached`,
      interrupted,
      { hint: rerun },
    );
  }
  if (counts.failed > 0) {
    const failed =
      counts.failed === source.orderCount
        ? `${counted(counts.failed, 'line')} failed: nothing was bought`
        : `${counts.failed} of ${source.orderCount} lines failed (the others stand)`;
    throw new SomeFailedError(failed, { hint: rerun });
  }
}

/**
 * Why lines were skipped, and how to buy again: a line's id comes from the batch's name (the file's base
 * name) and the line's own content, so the same line in the same batch is the same order (that is what
 * makes a re-run, or a grown file, safe); a new file name or a client_request_id column buys again.
 */
function skippedNote(skipped: number, source: BatchSource): string {
  const which =
    skipped === source.orderCount
      ? `every line of ${source.label} was`
      : `${counted(skipped, 'line')} ${skipped === 1 ? 'was' : 'were'}`;
  return (
    `energy: ${which} ordered by an earlier run of this batch (the same line of a file of the same name is one order, however the file grows); ` +
    'to buy again, give each line a new id in a client_request_id column, or use a file of another name'
  );
}
