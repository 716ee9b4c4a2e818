/**
 * A --max-spend ledger summed for `energy state status`: what it counts over the longest window any ceiling
 * used on it (what the strictest reader of it sees), as of `nowMs`. The status has no API clock to hand, so
 * `nowMs` is the host's: a host whose clock is off by minutes moves the window's edge by as much. Each store
 * sums its own (the folder's in state/folder/spend-folder-book.ts, PostgreSQL's in one statement).
 */
import { SpendBook } from './spend-book.js';
import type { SpendEvent } from './spend-events.js';

export interface LedgerTotals {
  /** `account sha256:…` or `budget <name>`. */
  ledger: string;
  longest_window_ms: number;
  /** Orders and holds counted in that window, and their sum (six decimals). */
  entries: number;
  spent_trx: string;
}

/** A ledger's book from its events, as the stores fold them. */
export function bookOf(events: Iterable<SpendEvent>): SpendBook {
  const book = new SpendBook();
  for (const event of events) book.apply(event);
  return book;
}
