/**
 * The account's newest orders, read newest first back to a moment: how `order recover` tells a request
 * that was committed (no consent needed to resend it) from one that may place an order now, and how
 * `ensure` counts what is in flight.
 */
import type { EnergyClient, OrderPagesParams } from '../client/client.js';
import type { Order } from '../client/types.js';
import { ListReading } from '../client/list-reading.js';

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
  /** The oldest created_at (ms) read; undefined when the list was empty. */
  oldestReadMs: number | undefined;
  /** Orders the server listed again, left out (each id is visited once). */
  repeated: number;
  /** created_at rose down the list: it is not newest first, so the scan read on past its oldest moment. */
  outOfOrder: boolean;
  /** What to say on stderr about the list (repeats, its order). */
  notices: string[];
}

/**
 * Visits each order once (by id), newest first as the server lists them, a whole page at a time, until a
 * whole page lies before `oldestMs` (list-reading.ts), the end of the list, `maxOrders` orders read, or `visit`
 * returning true. A list that turns out not to be newest first (created_at rises down it) is read on to
 * its end or `maxOrders`: its old order proves nothing about the pages after it.
 */
export async function scanRecentOrders(
  client: Pick<EnergyClient, 'orderPages'>,
  oldestMs: number,
  visit: (order: Order) => boolean | void,
  options: ScanOptions = {},
): Promise<RecentScan> {
  const maxOrders = options.maxOrders ?? SCAN_MAX_ORDERS;
  const reading = new ListReading();
  const ended = (complete: boolean): RecentScan => ({
    complete,
    oldestReadMs: reading.oldestMs,
    repeated: reading.repeated,
    outOfOrder: reading.outOfOrder,
    notices: reading.notices(),
  });
  let read = 0;
  for await (const page of client.orderPages({ pageSizes: SCAN_PAGE_SIZES, onPageSize: options.onPageSize })) {
    for (const order of page.items) {
      if (reading.take(order) && visit(order) === true) return ended(true);
    }
    reading.endPage(page.items.length);
    read += page.items.length;
    if (page.items.length === 0) break;
    if (reading.pageBefore(oldestMs)) return ended(true);
    if (read >= maxOrders) return ended(false);
  }
  return ended(true);
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
