/**
 * A reading of the order list from the API for a service's cycle (cycle-list.ts): as a host alone reads it, or as
 * the fleet's reader, which publishes it with the offer it read beside it.
 */
import type { OptionsResponse, Order } from '../client/types.js';
import type { EnergyClient } from '../client/client.js';
import { scanRecentOrders, type RecentScan } from '../ordering/find-recent.js';
import type { SharedOrderList } from '../state/shared-list.js';

type Pages = Pick<EnergyClient, 'orderPages'>;

/** The list back to `reach` (awaited first: a cycle may start its reading before its clock is read). */
export async function readList(
  client: Pages,
  reach: number | Promise<number>,
): Promise<{ orders: Order[]; scan: RecentScan }> {
  const orders: Order[] = [];
  const reachMs = await reach;
  const scan = await scanRecentOrders(client, reachMs, (order) => void orders.push(order));
  return { orders, scan };
}

/**
 * Read as alone, then published for the fleet with the offer read beside it, or none when that read failed (a
 * store that does not take it costs nothing but its reading).
 */
export async function readAndPublish(
  client: Pages,
  reachFrom: number | Promise<number>,
  shared: SharedOrderList,
  token: string,
  offer: Promise<OptionsResponse | undefined>,
): Promise<{ orders: Order[]; scan: RecentScan }> {
  let reading: { orders: Order[]; scan: RecentScan };
  let reachMs: number;
  try {
    reachMs = await reachFrom;
    reading = await readList(client, reachMs);
  } catch (error) {
    await shared.release(token).catch(() => undefined);
    throw error;
  }
  const { scan } = reading;
  const reach = {
    reachMs,
    complete: scan.complete,
    oldestReadMs: scan.oldestReadMs ?? null,
    outOfOrder: scan.outOfOrder,
  };
  await shared.publish(token, reading.orders, reach, (await offer) ?? null).catch(() => false);
  return reading;
}
