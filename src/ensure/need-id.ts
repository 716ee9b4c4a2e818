/**
 * Derived client_request_ids for `ensure`: hosts that decide together about one address's need send the
 * same id, so the server (ids are unique per account) places one order for them all. The id is made of
 * what every host sees the same way at the same moment:
 *
 *   - the address;
 *   - the need's anchor: the newest order to the address that the order list shows within the window
 *     (the order that answered the previous need, whatever its state), or, when there is none, the start
 *     of the current day-long period (`none <ISO time>`).
 *
 * A later, genuine shortfall comes after an order exists for the earlier one, and that order is then the
 * newest: a new anchor, a new id. The window reaches back to the start of the previous period, so an
 * order placed under `none <period>` stays visible for the rest of that period: that id is never derived
 * again for another need. Periods start at an offset taken from the address, so that the addresses of a
 * cron job do not all change period at one moment (midnight, say).
 *
 * The amount, hours and price are not in the id: hosts whose chain reads differ by a few blocks may size
 * the same need differently, and they must still meet on one id (the server then answers 409 to all but
 * the first, which `ensure` confirms in the order list).
 *
 * Every time here is on the server's clock (ordering/server-clock.ts), never a host's own: hosts whose clocks differ
 * by hours or days still meet in one period, and the window is compared with the orders' `created_at`,
 * which the server stamps.
 */
import { createHash } from 'node:crypto';

/** The length of a period; the window covers the current period and the one before. */
export const PERIOD_MS = 86_400_000;

/** The start of `address`'s current period at `nowMs`. */
export function periodStart(address: string, nowMs: number): number {
  const offset = Number.parseInt(digest(`period\n${address}`).slice(0, 12), 16) % PERIOD_MS;
  return Math.floor((nowMs - offset) / PERIOD_MS) * PERIOD_MS + offset;
}

/** The oldest order that can be `address`'s anchor at `nowMs`: the start of the previous period. */
export function windowStart(address: string, nowMs: number): number {
  return periodStart(address, nowMs) - PERIOD_MS;
}

/** What the need is anchored to: the newest order to the address in the window, or the period. */
export type Anchor = { orderId: string } | { periodStartMs: number };

/** What an order for an address's current need is derived from, and how to tell an earlier need's order. */
export interface Need {
  /** What this address's need is anchored to: the id of an order placed for it derives from this. */
  anchor: Anchor;
  /** Orders to the address older than this are not what an order for the current need could be. */
  windowStartMs: number;
  /**
   * When the list was read only in part (its newest 1,000 orders), the `created_at` of the oldest order
   * read: an order older than that could not be seen, so one met under a derived id answered an earlier
   * need. Undefined when the whole window was read: an unseen order under a derived id is then newer than
   * the reading, another host's order for this very need.
   */
  listedSinceMs: number | undefined;
}

const PREFIX = 'ensure-';

/** True for an id that `needId` derives: a request of `ensure`'s own. */
export function isNeedId(clientRequestId: string): boolean {
  return clientRequestId.startsWith(PREFIX);
}

export function needId(address: string, anchor: Anchor): string {
  const state =
    'orderId' in anchor ? `after ${anchor.orderId}` : `none ${new Date(anchor.periodStartMs).toISOString()}`;
  return `${PREFIX}${digest(`ensure need v1\n${address}\n${state}`).slice(0, 32)}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
