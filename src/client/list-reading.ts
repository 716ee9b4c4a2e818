/**
 * What one reading of the order list learns about the list itself. The spec gives the list no order
 * ("Order list response": items and next_cursor, nothing more) and does not say that an order is listed
 * once, so neither is taken on trust (issue 32):
 *   - each order id is counted once, however often pages repeat it, and the repeats are counted to be said;
 *   - the list is taken as newest first only while `created_at` never rises down it; once it rises (a list
 *     served oldest first, or orders imported with old stamps), a reading that would stop at an old order
 *     must read on instead.
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

  /** True when the order is new to this reading; false for one already read (counted in `repeated`). */
  take(order: Order): boolean {
    if (this.seen.has(order.id)) {
      this.repeated += 1;
      return false;
    }
    this.seen.add(order.id);
    this.#newInPage += 1;
    const createdMs = timestampMs(order.created_at);
    if (this.#previousMs !== undefined && createdMs > this.#previousMs) this.outOfOrder = true;
    this.#previousMs = createdMs;
    if (this.oldestMs === undefined || createdMs < this.oldestMs) this.oldestMs = createdMs;
    return true;
  }

  /** At the end of each page: a server whose pages keep repeating what was read is not read forever. */
  endPage(items: number): void {
    if (items > 0 && this.#newInPage === 0) this.#pagesWithoutNew += 1;
    else this.#pagesWithoutNew = 0;
    this.#newInPage = 0;
    if (this.#pagesWithoutNew >= MAX_PAGES_WITHOUT_NEW) {
      throw new ResponseShapeError(
        `GET /v1/energy/orders served ${MAX_PAGES_WITHOUT_NEW} pages in a row of orders already listed: the list cannot be read to its end`,
      );
    }
  }

  /** What the reading should say on stderr about the list, if anything. */
  notices(): string[] {
    const notices: string[] = [];
    if (this.repeated > 0) {
      notices.push(
        `energy: the server listed ${this.repeated === 1 ? 'an order' : `${this.repeated} orders`} more than once; each order is counted once`,
      );
    }
    if (this.outOfOrder) {
      notices.push("energy: the server's order list is not newest first (created_at rises down it): it was read whole");
    }
    return notices;
  }
}
