/**
 * The account's newest orders, read newest first back to a moment: how `order recover` tells a request
 * that was committed (no consent needed to resend it) from one that may place an order now, and how
 * `ensure` counts what is in flight.
 */
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { timestampMs } from '../domain/api-time.js';
import { ApiError } from '../domain/errors.js';

export interface RecentSearch {
  /** Stop at orders created this long before `sinceMs` (clocks differ; the server's may lag). */
  slackMs?: number;
  maxPages?: number;
}

/** How a scan ended: `complete` when it reached its oldest moment or the end of the list, not the page cap. */
export interface RecentScan {
  complete: boolean;
}

/**
 * Visits the orders newest first, a page of 100 at a time, until one older than `oldestMs`, the end of the
 * list, `maxPages` pages, or `visit` returning true.
 */
export async function scanRecentOrders(
  client: Pick<EnergyClient, 'orderPages' | 'listOrders'>,
  oldestMs: number,
  maxPages: number,
  visit: (order: Order) => boolean | void,
): Promise<RecentScan> {
  let pages = 0;
  try {
    for await (const page of client.orderPages({ limit: 100 })) {
      pages += 1;
      for (const order of page.items) if (visit(order) === true) return { complete: true };
      const last = page.items.at(-1);
      if (last === undefined || timestampMs(last.created_at) < oldestMs) return { complete: true };
      if (pages >= maxPages) return { complete: false };
    }
    return { complete: true };
  } catch (error) {
    // A server with a smaller page limit: its default page still holds the newest orders.
    if (!(error instanceof ApiError && error.status === 400) || pages > 0) throw error;
    const { items, next_cursor } = await client.listOrders();
    for (const order of items) if (visit(order) === true) break;
    return { complete: next_cursor === null };
  }
}

/** The orders found, by client_request_id; reads newest first and stops past `sinceMs` or `maxPages`. */
export async function findRecentOrders(
  client: Pick<EnergyClient, 'orderPages' | 'listOrders'>,
  ids: ReadonlySet<string>,
  sinceMs: number,
  options: RecentSearch = {},
): Promise<Map<string, Order>> {
  const found = new Map<string, Order>();
  await scanRecentOrders(client, sinceMs - (options.slackMs ?? 3_600_000), options.maxPages ?? 10, (order) => {
    if (ids.has(order.client_request_id)) found.set(order.client_request_id, order);
    return found.size === ids.size;
  });
  return found;
}
