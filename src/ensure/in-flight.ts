/**
 * Energy bought for an address and not delivered yet, so that a run soon after another does not buy the
 * same shortfall again, and each need's anchor (see need-id.ts). In flight: orders among the account's
 * newest that are not final; this machine's journal records whose outcome is unknown (they may be orders
 * the list does not show yet); and this machine's orders that the list no longer reaches (a large batch
 * since), followed by id. Erring this way buys too little at worst, which the next run makes up; the other
 * way would buy twice.
 */
import type { EnergyClient } from '../client/client.js';
import { isFinal } from '../client/wait-for-order.js';
import type { Journal } from '../journal/journal.js';
import { recordedOrder } from '../journal/record.js';
import { scanRecentOrders } from '../ordering/find-recent.js';
import { timestampMs } from '../domain/api-time.js';
import { mapLimit } from '../batch/pool.js';
import { periodStart, windowStart, type Anchor } from './need-id.js';

export interface InFlight {
  energy: number;
  /** Journal records for the address whose outcome is unknown (counted in `energy`). */
  unknownRequests: number;
  /** What this address's need is anchored to: the id of an order placed for it derives from this. */
  anchor: Anchor;
  /** Orders to the address older than this are not what an order for the current need could be. */
  windowStartMs: number;
}

/** Pages of 100 read at most: the order list's part that hosts share (the newest 1,000 orders). */
const MAX_PAGES = 10;
/** Orders followed by id at once. */
const FOLLOW_CONCURRENCY = 4;

/**
 * `knownFinal` holds ids of this machine's orders already seen final (a service keeps it between cycles,
 * so that an order is followed by id until it is final, and not after).
 */
export async function inFlightByAddress(
  client: EnergyClient,
  journal: Journal,
  addresses: ReadonlySet<string>,
  nowMs: number,
  knownFinal: Set<string> = new Set(),
): Promise<Map<string, InFlight>> {
  const result = new Map<string, InFlight>(
    [...addresses].map((address) => [
      address,
      {
        energy: 0,
        unknownRequests: 0,
        anchor: { periodStartMs: periodStart(address, nowMs) },
        windowStartMs: windowStart(address, nowMs),
      },
    ]),
  );
  const oldest = Math.min(...[...result.values()].map((entry) => entry.windowStartMs));
  const listed = new Set<string>();
  const anchored = new Set<string>();
  await scanRecentOrders(client, oldest, MAX_PAGES, (order) => {
    listed.add(order.client_request_id);
    const entry = result.get(order.address);
    if (entry === undefined) return;
    if (!isFinal(order)) entry.energy += order.energy;
    // Newest first: the first order to the address within its window is its anchor.
    if (!anchored.has(order.address) && timestampMs(order.created_at) >= entry.windowStartMs) {
      anchored.add(order.address);
      entry.anchor = { orderId: order.id };
    }
  });
  for (const record of journal.pending()) {
    if (listed.has(record.client_request_id)) continue;
    const sent = recordedOrder(record);
    const entry = result.get(sent.address);
    if (entry === undefined) continue;
    entry.energy += sent.energy;
    entry.unknownRequests += 1;
  }
  const unlisted = journal.ordered(oldest).filter((record) => {
    const orderId =
      record.outcome?.kind === 'created' || record.outcome?.kind === 'existing' ? record.outcome.order_id : '';
    return (
      !listed.has(record.client_request_id) && !knownFinal.has(orderId) && result.has(recordedOrder(record).address)
    );
  });
  await mapLimit(unlisted, FOLLOW_CONCURRENCY, async (record) => {
    if (record.outcome?.kind !== 'created' && record.outcome?.kind !== 'existing') return;
    const order = await client.getOrder(record.outcome.order_id);
    if (isFinal(order)) knownFinal.add(order.id);
    else result.get(order.address)!.energy += order.energy;
  });
  return result;
}
