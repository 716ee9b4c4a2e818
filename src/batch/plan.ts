/**
 * The quoting pass of a batch: what each line will cost, before any consent is asked. A line whose id the
 * journal already settled with an order is skipped (a re-run buys nothing twice); one whose outcome is
 * unknown is resent with its journaled bytes; every other line gets a quote. A line's journal record is
 * looked for under its id, then under the id an earlier version gave it (line-identity.ts).
 */
import type { EnergyClient } from '../client/client.js';
import { CliError, ConflictError, ContextualError } from '../domain/errors.js';
import type { Journal } from '../journal/journal.js';
import { hasOrder, recordedOrder, type JournalRecord } from '../journal/record.js';
import { addAmounts } from '../domain/money.js';
import type { BatchLine } from './parse-line.js';
import { legacyRequestId, lineRequestId } from './line-identity.js';
import { runPool } from './pool.js';
import { batchLines, type BatchSource } from './source.js';

/** What to do with a line, and the client_request_id it goes under. */
export type LinePlan = { id: string } & (
  | { kind: 'skip'; orderId: string }
  | { kind: 'resend'; record: JournalRecord; total: string }
  | { kind: 'new'; total: string; canAfford: boolean }
);

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
  journal: Journal,
  concurrency: number,
): Promise<BatchPlan> {
  const plan: BatchPlan = {
    lines: new Map(),
    total: '0.000000',
    counts: { skip: 0, resend: 0, new: 0 },
    quotedTotal: '0.000000',
    quoteRefused: false,
  };
  await runPool(batchLines(source), concurrency, async (line) => {
    const linePlan = await planLine(source, client, journal, line);
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
  journal: Journal,
  line: BatchLine,
): Promise<LinePlan> {
  const { id, record } = journaled(source, journal, line);
  if (record !== undefined && (hasOrder(record) || record.outcome === null)) {
    const sent = recordedOrder(record);
    if (sent.address !== line.address || sent.energy !== line.energy || sent.duration_hours !== line.hours) {
      throw new ConflictError(
        `${source.label}, line ${line.line}: client_request_id ${id} was already used from this machine for ${sent.address}, ${sent.energy} energy, ${sent.duration_hours} h: nothing was bought`,
      );
    }
    if (record.outcome !== null && (record.outcome.kind === 'created' || record.outcome.kind === 'existing')) {
      return { id, kind: 'skip', orderId: record.outcome.order_id };
    }
    return { id, kind: 'resend', record, total: sent.expected_total_trx };
  }
  try {
    const quote = await client.quote({ address: line.address, energy: line.energy, duration_hours: line.hours });
    return { id, kind: 'new', total: quote.total_trx, canAfford: quote.can_afford };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new ContextualError(`${source.label}, line ${line.line}: ${error.message}: nothing was bought`, error, {
      hint: error.hint,
    });
  }
}

/** The line's id and its record: under its own id, else (with an order, or pending) under its earlier one. */
function journaled(
  source: BatchSource,
  journal: Journal,
  line: BatchLine,
): { id: string; record: JournalRecord | undefined } {
  const id = lineRequestId(source, line);
  const record = journal.find(id);
  const legacyId = record === undefined ? legacyRequestId(source, line) : undefined;
  const legacy = legacyId === undefined ? undefined : journal.find(legacyId);
  if (legacyId !== undefined && legacy !== undefined && (hasOrder(legacy) || legacy.outcome === null))
    return { id: legacyId, record: legacy };
  return { id, record };
}
