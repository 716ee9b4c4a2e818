/**
 * A delivery the node already shows ends its node-lag grace at once (pure). The grace (on-its-way.ts) keeps a
 * delivered order in flight for a minute in case the node does not show it yet; but when the address spends
 * the delivery at once (a hot wallet's next transfer), its available energy says nothing, and the order
 * counted in flight held the next purchase back a cycle: two transfers in that time could burn TRX. What the
 * node shows once a delegation lands is a larger energy limit (java-tron's delegation adds to the receiver's
 * limit), so the limit now is compared with the limit the node gave in the cycle that placed the order, before
 * it: never with zero, since the address's own frozen energy (and other delegations) are in its limit too.
 *
 * What the limit must have grown by: the order's energy and that of every rental delivered to the address since
 * a node a grace behind could have left it out of the reading before (each of them may be what grew the
 * limit). Rentals that ended since only lower the limit: the order then stays in its grace, as before. So
 * the rule errs as the grace does, towards buying late, never twice. Only this process's orders have a
 * reading from before them (a service keeps them between cycles); others keep the whole grace.
 */
import type { Order } from '../client/types.js';
import { timestampMs } from '../domain/api-time.js';
import type { AddressState } from '../tron/address-state.js';
import { NODE_LAG_GRACE_MS, TERM_SLACK_MS } from './on-its-way.js';
import { toleratedUnits } from './shortfall.js';

/** The address's energy limit as the node gave it before an order, read at `readMs` (server clock) or later. */
export interface LimitBefore {
  limit: number;
  readMs: number;
  /** When the order is past its term (server clock): the reading is dropped then (rememberLimit). */
  untilMs?: number;
}

/**
 * Of the orders delivered within the grace (`justDelivered`), the energy the node shows already: those with a
 * reading from before them whose limit has grown since by all that was delivered after (`held`: the rentals
 * the address holds now), less the tolerance for the provider's stake yielding a little less.
 */
export function landedEnergy(
  justDelivered: readonly Order[],
  held: readonly Order[],
  onChain: AddressState,
  before: ReadonlyMap<string, LimitBefore> | undefined,
  toleranceBp: number,
): number {
  if (before === undefined) return 0;
  let landed = 0;
  for (const order of justDelivered) {
    const reading = before.get(order.id);
    if (reading === undefined) continue;
    const since = reading.readMs - NODE_LAG_GRACE_MS;
    const ids = new Set([order.id]);
    let grown = order.energy;
    for (const rental of held) {
      if (ids.has(rental.id) || timestampMs(rental.updated_at) < since) continue;
      ids.add(rental.id);
      grown += rental.energy;
    }
    if (onChain.energy_limit >= reading.limit + grown - toleratedUnits(grown, toleranceBp)) landed += order.energy;
  }
  return landed;
}

/**
 * Keeps the reading before a placed order (a service's map, between cycles) until the order is past its term
 * (then it has no grace left), so the map holds the orders of one term at most.
 */
export function rememberLimit(before: Map<string, LimitBefore>, order: Order, reading: LimitBefore): void {
  for (const [id, kept] of before) if (kept.untilMs !== undefined && kept.untilMs < reading.readMs) before.delete(id);
  const untilMs = timestampMs(order.created_at) + order.duration_hours * 3_600_000 + TERM_SLACK_MS;
  before.set(order.id, { ...reading, untilMs });
}
