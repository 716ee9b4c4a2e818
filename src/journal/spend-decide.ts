/**
 * The hold decision of a --max-spend ledger (pure), one rule for both stores: what is left of the ceiling in
 * the window, and each request's cost (spend-book.ts's costOfHold), taken in the order given. The folder
 * ledger gives it its whole book; PostgreSQL gives it the window's sum and oldest entry as the database added
 * them up, and a book of the asked ids' events only.
 */
import { compareAmounts, subtractAmounts } from '../domain/money.js';
import type { SpendBook } from './spend-book.js';
import type { HoldDecision, HoldRequest, Shortfall, SpendEvent } from './spend-ledger.js';

/** The window as counted: its sum, when its oldest counted entry counts from, the base URLs of the key's holds. */
export interface WindowView {
  /** Where the window starts (the request's time less its window, or earlier: pg-spend-ledger.ts). */
  sinceMs: number;
  spent: string;
  oldestMs: number | undefined;
  origins: ReadonlySet<string>;
  longestWindowMs: number;
}

/** The events a hold writes (the window, when longer than any before; a hold per request that fits) and the decision. */
export function decideHolds(
  view: WindowView,
  entries: Pick<SpendBook, 'costOfHold'>,
  request: HoldRequest,
): { events: SpendEvent[]; decision: HoldDecision } {
  const { nowMs, windowMs, trx, holder, keyId, origin } = request;
  const since = view.sinceMs;
  const events: SpendEvent[] = windowMs > view.longestWindowMs ? [{ kind: 'window', window_ms: windowMs }] : [];
  const otherOrigins = view.origins.size > 0 && !view.origins.has(origin) ? [...view.origins] : [];
  let left = subtractAmounts(trx, view.spent);
  let oldest = view.oldestMs;
  const shortfalls = request.wanted.map(({ id, address, total }): Shortfall | undefined => {
    const cost = entries.costOfHold(id, total, since);
    if (compareAmounts(cost, left) > 0) return { left, oldestMs: oldest };
    left = subtractAmounts(left, cost);
    if (compareAmounts(cost, '0') > 0) oldest ??= nowMs;
    events.push({ kind: 'hold', id, holder, address, total_trx: total, at_ms: nowMs, key_id: keyId, origin });
    return undefined;
  });
  return { events, decision: { shortfalls, otherOrigins } };
}
