/**
 * `ensure --dry-run --max-spend`: what the ceiling would hold back, read and not held. What is left is the
 * ceiling's own reading (SpendCeilingRule.leftNow: the ledger read, nothing held or written); the purchases
 * that fit are taken in the order given, as the real run holds them, and each other one is marked
 * `spend_limit`, with one line of totals. (A real run may find more room: orders of the ledger refunded since,
 * which it asks the API about; the dry run asks nothing.)
 */
import { ConflictError } from '../domain/cli-errors.js';
import { sumAmounts } from '../domain/money.js';
import { fitInOrder } from '../ordering/what-fits.js';
import type { EnsureDeps, Purchase } from './ensure-types.js';
import { failItem } from './item.js';

/** The purchases that fit under the ceiling; the others marked spend_limit. */
export async function dryRunCeiling(deps: EnsureDeps, purchases: readonly Purchase[]): Promise<Purchase[]> {
  const rule = deps.spendCeiling;
  if (rule === undefined || purchases.length === 0) return [...purchases];
  const left = await rule.leftNow((deps.nowMs ?? Date.now)());
  const { fits } = fitInOrder(
    purchases.map((p) => p.quote.total_trx),
    left,
  );
  const kept = purchases.filter((_, index) => fits[index]);
  const held = purchases.filter((_, index) => !fits[index]);
  for (const { item, quote } of held) {
    failItem(
      item,
      new ConflictError(
        `${quote.total_trx} TRX would pass --max-spend ${rule.limit.text} (${left} TRX left, after the addresses listed before it): a real run would not order it`,
      ),
      'spend_limit',
    );
  }
  if (held.length > 0) {
    const sum = (list: readonly Purchase[]) => sumAmounts(list.map((p) => p.quote.total_trx));
    deps.note(
      `energy: --max-spend ${rule.limit.text} has ${left} TRX left: a real run would buy ${kept.length} of these ${purchases.length} (${sum(kept)} TRX) and hold back ${held.length} (${sum(held)} TRX)`,
    );
  }
  return kept;
}
