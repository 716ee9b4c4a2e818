/**
 * How much of an order's energy is still on its way to the address (pure): what `ensure` counts in flight.
 * An order not final is on its way. A delivered one is too, for a while: the API says delivered once the
 * delegation is on its own node, and a node behind a load balancer may answer from a replica a block or
 * more behind (tron-node-subset.md), so the energy can show on our node seconds later. Counted neither in
 * flight nor on chain in those seconds, it would be bought again. Erring this way buys a little late at
 * worst (an address that spends a delivery at once waits up to the grace for the next), never twice.
 */
import type { Order } from '../client/types.js';
import { timestampMs } from '../domain/api-time.js';

/** How long after its delivery (the order's `updated_at`, on the server's clock) a delivered order still counts. */
export const NODE_LAG_GRACE_MS = 60_000;

/**
 * Past its term, with this much slack (a delivery that took minutes, a term counted from the delivery, a
 * second at the edge), an order holds no energy, whatever its status: the API may still call it active
 * (its lifecycle not updated yet, or never), and taking it at its word blocked the address as
 * `not_on_chain` for as long as the API lagged. 15 minutes: far above a delivery's usual seconds.
 */
export const TERM_SLACK_MS = 15 * 60_000;

/** Whether `created_at` + `duration_hours` + the slack has passed at `serverNowMs` (the server's clock). */
export function pastTerm(order: Order, serverNowMs: number): boolean {
  return serverNowMs > timestampMs(order.created_at) + order.duration_hours * 3_600_000 + TERM_SLACK_MS;
}

/**
 * The order's energy while it is on its way at `serverNowMs`, else 0 (arrived long enough ago, ended, past its
 * term). A failure object on an order whose lifecycle is not final does not end it: it may still deliver.
 */
export function energyOnItsWay(order: Order, serverNowMs: number): number {
  if (order.lifecycle_final || pastTerm(order, serverNowMs)) return 0;
  if (!order.delivery_final) return order.energy;
  return serverNowMs - timestampMs(order.updated_at) < NODE_LAG_GRACE_MS ? order.energy : 0;
}

/**
 * A delivered order stamped ahead of the server's clock (GET /v1/time): its age cannot be read from its
 * stamp, and the grace would last as long as the stamps are ahead (a server stamping local time as UTC
 * kept a used-up delivery "in flight" for 8 h). Its energy is on its way only until the node shows it
 * (in-flight.ts counts it apart; plan-ensure.ts drops it once the address's EnergyLimit holds it).
 */
export function stampedAhead(order: Order, serverNowMs: number): boolean {
  return order.delivery_final && energyOnItsWay(order, serverNowMs) > 0 && timestampMs(order.updated_at) > serverNowMs;
}
