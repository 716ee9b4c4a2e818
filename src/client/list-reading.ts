/**
 * What one reading of the order list learns about the list itself. The spec gives the list no order
 * ("Order list response": items and next_cursor, nothing more) and does not say that an order is listed
 * once, so neither is taken on trust (issue 32):
 *   - each order id is counted once, however often pages repeat it, and the repeats are counted to be said;
 *   - the list is taken as newest first only while `created_at` never rises down it; once it rises (a list
 *     served oldest first, or orders imported with old stamps), a reading that would stop at an old order
 *     must read on instead;
 *   - a reading of a window stops only after a whole page lies before it (`pageBefore`): an old order amid
 *     a page, or ending it, may be one of a block of backdated orders with recent ones after it, which a
 *     reading that stopped there would never see (spend --since counted 1 of 7 such orders).
 */
import type { Order } from './types.js';
import { timestampMs } from '../domain/api-time.js';
import { ResponseShapeError } from '../domain/errors.js';

/** Pages in a row that bring no order not already read: the server is going round in circles. */
export const MAX_PAGES_WITHOUT_NEW = 3;

/** What remembers the ids read: a Set by default; `spend` gives one in flat memory (reports/id-set.ts). */
export interface SeenIds {
  has(id: string): boolean;
  add(id: string): unknown;
}

export class ListReading {
  constructor(private readonly seen: SeenIds = new Set<string>()) {}
  /** Orders met again after the first time (by id), left out. */
  repeated = 0;
  /** A `created_at` rose down the list: it is not newest first. */
  outOfOrder = false;
  /** The oldest `created_at` read (ms); undefined before the first order. */
  oldestMs: number | undefined;
  #previousMs: number | undefined;
  #newInPage = 0;
  #pagesWithoutNew = 0;
  /** The newest `created_at` (ms) of the page being read, repeats included; of the last page once it ended. */
  #pageNewestMs: number | undefined;
  #lastPageNewestMs: number | undefined;

  /** True when the order is new to this reading; false for one already read (counted in `repeated`). */
  take(order: Order): boolean {
    const stampMs = timestampMs(order.created_at);
    if (this.#pageNewestMs === undefined || stampMs > this.#pageNewestMs) this.#pageNewestMs = stampMs;
    if (this.seen.has(order.id)) {
      this.repeated += 1;
      return false;
    }
    this.seen.add(order.id);
    this.#newInPage += 1;
    if (this.#previousMs !== undefined && stampMs > this.#previousMs) this.outOfOrder = true;
    this.#previousMs = stampMs;
    if (this.oldestMs === undefined || stampMs < this.oldestMs) this.oldestMs = stampMs;
    return true;
  }

  /** At the end of each page: a server whose pages keep repeating what was read is not read forever. */
  endPage(items: number): void {
    if (items > 0 && this.#newInPage === 0) this.#pagesWithoutNew += 1;
    else this.#pagesWithoutNew = 0;
    this.#newInPage = 0;
    this.#lastPageNewestMs = this.#pageNewestMs;
    this.#pageNewestMs = undefined;
    if (this.#pagesWithoutNew >= MAX_PAGES_WITHOUT_NEW) {
      throw new ResponseShapeError(
        `GET /v1/energy/orders served ${MAX_PAGES_WITHOUT_NEW} pages in a row of orders already listed: the list cannot be read to its end`,
      );
    }
  }

  /**
   * After endPage: whether the reading of a window starting at `boundMs` may stop here: the page just read
   * had orders, every one of them (repeats too) older than the bound, and the list is newest first so far.
   */
  pageBefore(boundMs: number): boolean {
    return !this.outOfOrder && this.#lastPageNewestMs !== undefined && this.#lastPageNewestMs < boundMs;
  }

  /**
   * What the reading should say on stderr about the list, if anything. A list that repeats orders (a page
   * served again under a fresh cursor) may have left others out where the repeat stands: `short` says what
   * that does to what was read (spend: the total may be short), as a count of each order once cannot cure it.
   */
  notices(short = 'what was read from it may be incomplete'): string[] {
    const notices: string[] = [];
    if (this.repeated > 0) {
      notices.push(
        `energy: the server listed ${this.repeated === 1 ? 'an order' : `${this.repeated} orders`} more than once; each order is counted once, but a list that repeats orders may also have left some out: ${short}`,
      );
    }
    if (this.outOfOrder) {
      notices.push("energy: the server's order list is not newest first (created_at rises down it): it was read whole");
    }
    return notices;
  }
}
