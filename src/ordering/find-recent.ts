/**
 * The account's newest orders, read newest first back to a moment: how `order recover` tells a request
 * that was committed (no consent needed to resend it) from one that may place an order now, and how
 * `ensure` counts what is in flight.
 */
import type { EnergyClient, OrderPagesParams } from '../client/client.js';
import type { Order } from '../client/types.js';
import { timestampMs } from '../domain/api-time.js';

/**
 * Page sizes asked for in turn: the spec gives `limit` no bound, so a server that refuses one (400) is
 * asked for the next, down to its own default; the first size accepted is kept for every page.
 */
export const SCAN_PAGE_SIZES = [100, 50, undefined] as const;
/** The part of the list a scan reads at most, whatever the page size: the account's newest 1,000 orders. */
export const SCAN_MAX_ORDERS = 1000;

export interface ScanOptions {
  /** At most this many orders are read (default SCAN_MAX_ORDERS). */
  maxOrders?: number;
  /** Told the page size the server accepted (undefined: its default), once. */
  onPageSize?: OrderPagesParams['onPageSize'];
}

export interface RecentSearch extends ScanOptions {
  /** Stop at orders created this long before `sinceMs` (clocks differ; the server's may lag). */
  slackMs?: number;
}

/** How a scan ended. */
export interface RecentScan {
  /** True when it reached its oldest moment or the end of the list; false when it stopped at `maxOrders`. */
  complete: boolean;
  /** created_at (ms) of the last order read, the oldest; undefined when the list was empty. */
  oldestReadMs: number | undefined;
}

/**
 * Visits the orders newest first, a whole page at a time, until a page ends with an order older than
 * `oldestMs`, the end of the list, `maxOrders` orders read, or `visit` returning true.
 */
export async function scanRecentOrders(
  client: Pick<EnergyClient, 'orderPages'>,
  oldestMs: number,
  visit: (order: Order) => boolean | void,
  options: ScanOptions = {},
): Promise<RecentScan> {
  const maxOrders = options.maxOrders ?? SCAN_MAX_ORDERS;
  let read = 0;
  let oldestReadMs: number | undefined;
  for await (const page of client.orderPages({ pageSizes: SCAN_PAGE_SIZES, onPageSize: options.onPageSize })) {
    for (const order of page.items) if (visit(order) === true) return { complete: true, oldestReadMs };
    read += page.items.length;
    const last = page.items.at(-1);
    if (last === undefined) break;
    oldestReadMs = timestampMs(last.created_at);
    if (oldestReadMs < oldestMs) return { complete: true, oldestReadMs };
    if (read >= maxOrders) return { complete: false, oldestReadMs };
  }
  return { complete: true, oldestReadMs };
}

/** The orders found, by client_request_id; reads newest first and stops past `sinceMs` or `maxOrders`. */
export async function findRecentOrders(
  client: Pick<EnergyClient, 'orderPages'>,
  ids: ReadonlySet<string>,
  sinceMs: number,
  options: RecentSearch = {},
): Promise<Map<string, Order>> {
  const found = new Map<string, Order>();
  await scanRecentOrders(
    client,
    sinceMs - (options.slackMs ?? 3_600_000),
    (order) => {
      if (ids.has(order.client_request_id)) found.set(order.client_request_id, order);
      return found.size === ids.size;
    },
    options,
  );
  return found;
}
