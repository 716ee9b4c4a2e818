/**
 * Looks for orders by client_request_id among the newest orders of the account, without spending: how
 * `order recover` tells a request that was committed (no consent needed to resend it) from one that may
 * place an order now.
 */
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { ApiError } from '../domain/errors.js';
import { timestampMs } from '../domain/api-time.js';

export interface RecentSearch {
  /** Stop at orders created this long before `sinceMs` (clocks differ; the server's may lag). */
  slackMs?: number;
  maxPages?: number;
}

/** The orders found, by client_request_id; reads newest first and stops past `sinceMs` or `maxPages`. */
export async function findRecentOrders(
  client: Pick<EnergyClient, 'orderPages' | 'listOrders'>,
  ids: ReadonlySet<string>,
  sinceMs: number,
  options: RecentSearch = {},
): Promise<Map<string, Order>> {
  const found = new Map<string, Order>();
  const oldest = sinceMs - (options.slackMs ?? 3_600_000);
  const maxPages = options.maxPages ?? 10;
  let pages = 0;
  try {
    for await (const page of client.orderPages({ limit: 100 })) {
      for (const order of page.items) if (ids.has(order.client_request_id)) found.set(order.client_request_id, order);
      pages += 1;
      const last = page.items.at(-1);
      if (found.size === ids.size || pages >= maxPages || last === undefined || timestampMs(last.created_at) < oldest)
        break;
    }
  } catch (error) {
    // A server with a smaller page limit: the default page size still finds the newest orders.
    if (!(error instanceof ApiError && error.status === 400) || pages > 0) throw error;
    for (const order of (await client.listOrders()).items)
      if (ids.has(order.client_request_id)) found.set(order.client_request_id, order);
  }
  return found;
}
