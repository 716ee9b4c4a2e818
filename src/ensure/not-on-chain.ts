/**
 * An order delivered and not yet expired is the need's answer for as long as it lasts: when the TRON node
 * shows less, the node is what is wrong (another network, a stale replica), not the address's supply, and
 * buying again would buy again every cycle. Past the node-lag grace (on-its-way.ts), while the node's energy
 * limit for the address does not hold the delivered energy, the item fails with reason `not_on_chain`,
 * naming the order, the energy, the time and the node; nothing is bought. Energy the node shows and the
 * address has used is a real shortfall, and buys as before.
 */
import type { Order } from '../client/types.js';
import { OrderFailedError } from '../domain/cli-errors.js';
import { printable } from '../domain/printable.js';
import { formatInteger, formatTimestamp } from '../domain/text-forms.js';
import type { AddressState } from '../tron/address-state.js';
import { NODE_LAG_GRACE_MS, pastTerm } from './on-its-way.js';
import { timestampMs } from '../domain/api-time.js';
import { toleratedUnits } from './shortfall.js';
import { rentalEndMs } from './renewal.js';

/**
 * Delivered, not failed, not expired (neither final nor past its term: an order the API still calls active
 * past `created_at` + `duration_hours` holds no energy), and delivered longer ago than the node-lag grace
 * (server clock).
 */
export function deliveredAndLasting(order: Order, serverNowMs: number): boolean {
  if (order.failure !== null || order.lifecycle_final || !order.delivery_final) return false;
  if (pastTerm(order, serverNowMs)) return false;
  return serverNowMs - timestampMs(order.updated_at) >= NODE_LAG_GRACE_MS;
}

/**
 * The error the item fails with when the node does not show `delivered`; undefined when it does (or none). A
 * rental whose term ends within the grace of `serverNowMs`, either side, is not asked of the node: it may have
 * ended on chain by the time the node is read (after the list, which called it active), and asked for, it
 * failed an address spending fast as `not_on_chain` at rentals' ends, nothing bought, while its transfers
 * burnt. Past that, an order the API still calls active within its slack is asked for, as before (issue 40).
 */
export function notOnChain(
  lasting: readonly Order[],
  chain: AddressState,
  toleranceBp: number,
  nodeUrl: string,
  serverNowMs: number,
): OrderFailedError | undefined {
  const delivered = lasting.filter((order) => Math.abs(rentalEndMs(order) - serverNowMs) > NODE_LAG_GRACE_MS);
  const energy = delivered.reduce((sum, order) => sum + order.energy, 0);
  if (delivered.length === 0 || chain.energy_limit >= energy - toleratedUnits(energy, toleranceBp)) return undefined;
  const newest = delivered.reduce((a, b) => (b.updated_at > a.updated_at ? b : a));
  const others = delivered.length === 1 ? '' : ` (and ${delivered.length - 1} other delivered order(s))`;
  return new OrderFailedError(
    `order ${printable(newest.id, 80)} delivered ${formatInteger(newest.energy)} energy to ${chain.address} at ${formatTimestamp(newest.updated_at, 0)}${others}, but the TRON node at ${printable(nodeUrl, 200)} does not show it (energy limit ${formatInteger(chain.energy_limit)}): not bought again while it lasts; is ENERGY_TRON_NODE on the API's network?`,
  );
}
