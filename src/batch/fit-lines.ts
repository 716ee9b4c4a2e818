/**
 * `order batch --place-what-fits`: which new lines the available balance pays for, in the file's order, by
 * the rule `ensure` uses (ordering/what-fits.ts). A line the balance cannot cover is never sent: with
 * every line in flight at once, the server would fund whichever request reached it first, not the lines
 * the file lists first. A resend is always sent: its order may exist and be paid for already.
 */
import type { EnergyClient } from '../client/client.js';
import { ConflictError } from '../domain/cli-errors.js';
import { addAmounts, subtractAmounts } from '../domain/money.js';
import { fitInOrder } from '../ordering/what-fits.js';
import type { BatchPlan } from './plan.js';
import { batchLines, type BatchSource } from './source.js';

export interface LinesFit {
  /** The new lines the balance cannot pay: they fail without a request. */
  unfunded: ReadonlySet<number>;
  /** What the lines to send add up to (resends, and the new lines that fit). */
  total: string;
  /** The balance read for this (GET /v1/balance). */
  available: string;
}

export async function fitLines(
  source: BatchSource,
  plan: BatchPlan,
  client: Pick<EnergyClient, 'balance'>,
): Promise<LinesFit> {
  const { available_trx: available } = await client.balance();
  const lines: number[] = [];
  const totals: string[] = [];
  for await (const line of batchLines(source)) {
    const linePlan = plan.lines.get(line.line);
    if (linePlan?.kind !== 'new') continue;
    lines.push(line.line);
    totals.push(linePlan.total);
  }
  const { fits } = fitInOrder(totals, available);
  const unfunded = new Set<number>();
  let unpaid = '0.000000';
  fits.forEach((fit, index) => {
    if (fit) return;
    unfunded.add(lines[index]!);
    unpaid = addAmounts(unpaid, totals[index]!);
  });
  return { unfunded, total: subtractAmounts(plan.total, unpaid), available };
}

/** Why a line the balance cannot pay was not sent. */
export function unfundedError(total: string, fit: LinesFit): ConflictError {
  return new ConflictError(
    `${total} TRX is more than the balance has left after the lines before it (${fit.available} TRX available): not ordered`,
  );
}
