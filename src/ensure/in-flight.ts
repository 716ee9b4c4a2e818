/**
 * Energy bought for an address and not delivered yet, so that a run soon after another does not buy the
 * same shortfall again: orders among the account's newest that are not final, plus this machine's journal
 * records whose outcome is unknown (they may be orders the list does not show yet). Erring this way buys
 * too little at worst, which the next run makes up; the other way would buy twice.
 */
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { isFinal } from '../client/wait-for-order.js';
import { ApiError } from '../domain/errors.js';
import type { Journal } from '../journal/journal.js';
import { recordedOrder } from '../journal/record.js';
import { timestampMs } from '../domain/api-time.js';

export interface InFlight {
  energy: number;
  /** Journal records for the address whose outcome is unknown (counted in `energy`). */
  unknownRequests: number;
}

/** Undelivered orders older than this are not looked for: delivery takes seconds to minutes. */
export const IN_FLIGHT_WINDOW_MS = 24 * 3_600_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

export async function inFlightByAddress(
  client: EnergyClient,
  journal: Journal,
  addresses: ReadonlySet<string>,
  nowMs: number,
): Promise<Map<string, InFlight>> {
  const result = new Map<string, InFlight>(
    [...addresses].map((address) => [address, { energy: 0, unknownRequests: 0 }]),
  );
  const listed = new Set<string>();
  for (const order of await recentOrders(client, nowMs - IN_FLIGHT_WINDOW_MS)) {
    listed.add(order.client_request_id);
    const entry = result.get(order.address);
    if (entry !== undefined && !isFinal(order)) entry.energy += order.energy;
  }
  for (const record of journal.pending()) {
    if (listed.has(record.client_request_id)) continue;
    const sent = recordedOrder(record);
    const entry = result.get(sent.address);
    if (entry === undefined) continue;
    entry.energy += sent.energy;
    entry.unknownRequests += 1;
  }
  return result;
}

/** The account's orders, newest first, back to `sinceMs` (at most MAX_PAGES pages). */
async function recentOrders(client: EnergyClient, sinceMs: number): Promise<Order[]> {
  const orders: Order[] = [];
  let pages = 0;
  try {
    for await (const page of client.orderPages({ limit: PAGE_SIZE })) {
      orders.push(...page.items);
      pages += 1;
      const last = page.items.at(-1);
      if (pages >= MAX_PAGES || last === undefined || timestampMs(last.created_at) < sinceMs) break;
    }
  } catch (error) {
    // A server with a smaller page limit: its default page still holds the newest orders.
    if (!(error instanceof ApiError && error.status === 400) || pages > 0) throw error;
    orders.push(...(await client.listOrders()).items);
  }
  return orders;
}
