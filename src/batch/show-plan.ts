/**
 * `order batch --dry-run`: each line's plan (order, resend, skip; with --place-what-fits `unfunded` for a new
 * line the balance would not cover, which a real run fails unsent) and its total, then what a real run would
 * say about the money: above --max-total, or more than the balance.
 */
import { compareAmounts } from '../domain/money.js';
import type { EnergyClient } from '../client/client.js';
import { fitLines, type LinesFit } from './fit-lines.js';
import { plannedId, type BatchPlan } from './plan.js';
import { batchLines, type BatchSource } from './source.js';

/** One line of a dry run's plan, as printed. */
export interface PlannedLine {
  line: number;
  client_request_id: string;
  plan: 'order' | 'resend' | 'skip' | 'unfunded';
  address: string;
  energy: number;
  duration_hours: number;
  total_trx: string | null;
}

/** What of the request the dry run's verdict depends on. */
interface PlanRequest {
  maxTotal: string | undefined;
  placeWhatFits: boolean;
}

interface PlanDeps {
  client: Pick<EnergyClient, 'balance'>;
  note: (line: string) => void;
  onPlannedLine: (line: PlannedLine) => Promise<void>;
  flush: () => Promise<void>;
}

export async function showPlan(
  deps: PlanDeps,
  request: PlanRequest,
  source: BatchSource,
  plan: BatchPlan,
): Promise<void> {
  // With --place-what-fits the balance is read first, so that each line can say whether it would be sent.
  const fit = request.placeWhatFits && plan.counts.new > 0 ? await fitLines(source, plan, deps.client) : undefined;
  for await (const line of batchLines(source)) {
    const linePlan = plan.lines.get(line.line)!;
    await deps.onPlannedLine({
      line: line.line,
      client_request_id: plannedId(source, line, linePlan),
      plan: linePlan.kind !== 'new' ? linePlan.kind : fit?.unfunded.has(line.line) === true ? 'unfunded' : 'order',
      address: line.address,
      energy: line.energy,
      duration_hours: line.hours,
      total_trx: linePlan.kind === 'skip' ? null : linePlan.total,
    });
  }
  await deps.flush();
  deps.note(
    `energy: dry run: ${plan.counts.new} to order, ${plan.counts.resend} to resend, ${plan.counts.skip} already ordered; ${plan.total} TRX in all${await wouldRefuse(deps, request, plan, fit)}; nothing was bought`,
  );
}

/**
 * What a real run would say about the money before buying: above --max-total, or more than the balance (one
 * GET /v1/balance, read even for one line, so that a dry run never says yes where the run says no). With
 * --place-what-fits, the lines a real run would send are those the balance covers, in order (fit-lines.ts).
 */
async function wouldRefuse(
  deps: PlanDeps,
  request: PlanRequest,
  plan: BatchPlan,
  fit: LinesFit | undefined,
): Promise<string> {
  const total = fit?.total ?? plan.total;
  if (request.maxTotal !== undefined && compareAmounts(total, request.maxTotal) > 0) {
    const covered = fit === undefined ? '' : `, ${total} TRX of it what the balance covers`;
    return `${covered}, above --max-total ${request.maxTotal}: a real run would buy nothing (exit 5)`;
  }
  if (plan.counts.new === 0) return '';
  const available = fit?.available ?? (await deps.client.balance()).available_trx;
  const short =
    fit === undefined ? plan.quoteRefused || compareAmounts(plan.quotedTotal, available) > 0 : fit.unfunded.size > 0;
  if (!short) return `; ${available} TRX available`;
  const refused = `; ${available} TRX available, not enough for the ${plan.quotedTotal} TRX of new orders`;
  return fit === undefined
    ? `${refused}: a real run would buy nothing (exit 5; --place-what-fits places the lines it covers)`
    : `${refused}: a real run would place the lines it covers, in order, and fail the other ${fit.unfunded.size} (exit 9)`;
}
