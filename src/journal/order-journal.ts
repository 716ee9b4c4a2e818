/**
 * The order journal as the flows use it (ordering/, batch/, ensure/, the order commands): one contract, two
 * stores. The local folder (journal.ts) answers reads at once; the shared store (state/pg/, PostgreSQL)
 * answers them over the network, so every read may be a promise and callers await it.
 */
import type { UnreadableRecord } from './read-records.js';
import type { JournalRecord, OutcomeInput } from './record.js';

/** A value now, or later. */
export type Awaitable<T> = T | Promise<T>;

/**
 * Which account a journal's records belong to: the API key's one-way id (record.ts keyIdOf), whatever the base
 * URL's spelling (`http://127.0.0.1:p` and `http://localhost:p` are one account).
 */
export interface JournalScope {
  /** The API base URL, as the requests go to it: kept in records as information, never part of the account. */
  origin: string;
  keyId: string;
}

export interface OrderJournal {
  readonly scope: JournalScope;
  /** Where the records are kept, for messages: the folder, or the database's URL without its password. */
  readonly where: string;
  /** The record for this id in this scope: the pending one if any, else the settled one. */
  find(clientRequestId: string): Awaitable<JournalRecord | undefined>;
  /**
   * As `find`, for many ids in one read: the records found, by id. Where a read crosses the network (PostgreSQL:
   * one statement); the folder's `find` is a file read, asked id by id.
   */
  findAll?(clientRequestIds: readonly string[]): Promise<Map<string, JournalRecord>>;
  /**
   * Writes the record of a request about to be sent, durably, before it is sent; an id another run has journaled
   * (pending, or settled with an order) returns that record instead (`fresh` false), whose bytes are to be sent.
   */
  begin(clientRequestId: string, body: string): Promise<{ record: JournalRecord; fresh: boolean }>;
  /** Notes why the outcome is still unknown; the record stays pending. */
  markUncertain(record: JournalRecord, reason: string): Promise<JournalRecord>;
  /** Records the server's definite answer and takes the record out of the pending list (once). */
  settle(record: JournalRecord, outcome: OutcomeInput): Promise<JournalRecord>;
  /** Pending records of this scope, oldest first; for `addresses` only when given (what a decision reads). */
  pending(addresses?: readonly string[]): Awaitable<JournalRecord[]>;
  /** Settled records of this scope with an order, journaled at `sinceMs` or later; for `addresses` only when given. */
  ordered(sinceMs: number, addresses?: readonly string[]): Awaitable<JournalRecord[]>;
  /** Pending records of every API and key in this store, oldest first. */
  allPending(): Awaitable<JournalRecord[]>;
  /** The pending record of this id when it exists but cannot be read. */
  unreadableFor(clientRequestId: string): Awaitable<UnreadableRecord | undefined>;
  /** Pending records of this scope that cannot be read. */
  unreadablePending(): Awaitable<UnreadableRecord[]>;
  /** True when the record was sent with this journal's API key (whatever the URL's spelling). */
  covers(record: JournalRecord): boolean;
  /** How many pending records this scope has, not counting `exceptId`. */
  pendingCount(exceptId?: string): Awaitable<number>;
  /** Removes settled records past the retention period (housekeeping, never fails an order). */
  prune(): Promise<number>;
}
