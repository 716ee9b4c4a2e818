/**
 * What `ensure --max-spend <trx>/<duration>` counts against: a ledger of events, appended and never
 * rewritten, kept where it outlives the process (the state folder, spend-ledger-file.ts; PostgreSQL,
 * state/pg/pg-spend-ledger.ts). An order is *held* (its quoted price) under its client_request_id before
 * its request leaves, checked against the ceiling under the ledger's lock; the answer turns the hold into
 * the order (its id and price), a request that placed nothing drops it, and a final outcome settles it
 * (a refund gives the price back). Every time is the API server's, as the run measured it (`/v1/time`'s
 * offset) when the event happened: never an order's own stamps. What the events add up to is
 * spend-book.ts.
 *
 * A ledger is named: `account <key id>` (every `ensure` of one API key, whatever the URL's spelling, the
 * addresses or the host) or `budget <name>` (`--budget`: one ceiling for whatever names it).
 */
import type { SpendBook } from './spend-book.js';
import type { SpendEvent } from './spend-events.js';

export type { FinalState, SpendEvent, StoredEvent } from './spend-events.js';

/** What a change under the ledger's lock returns: the events to append, and the caller's answer. */
export interface LedgerChange<T> {
  events: SpendEvent[];
  value: T;
}

export interface SpendLedger {
  /** `account sha256:…` or `budget payouts`: said in messages. */
  readonly name: string;
  /**
   * Runs `change` on the ledger as it stands, alone among every process and host writing it, and appends
   * the events it returns before the lock is released; entries older than the longest window any ceiling
   * used on it (at the server's `nowMs`) may be pruned meanwhile.
   */
  update<T>(nowMs: number, change: (book: SpendBook) => LedgerChange<T>): Promise<T>;
  /** The ledger as it stands. */
  read(): Promise<SpendBook>;
}

/** The ledger of one API key's `ensure` runs. */
export function accountLedger(keyId: string): string {
  return `account ${keyId}`;
}

/** The ledger `--budget <name>` names. */
export function budgetLedger(name: string): string {
  return `budget ${name}`;
}
