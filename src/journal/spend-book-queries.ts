/**
 * What a ceiling asks of a ledger held as a book in memory (the folder's, spend-ledger-file.ts): the same
 * questions PostgreSQL answers with SQL (state/pg/pg-spend-queries.ts).
 */
import { entryAmount, entryTime, type SpendBook } from './spend-book.js';
import { decideHolds } from './spend-decide.js';
import type { HoldDecision, HoldRequest, LackingOrder, OpenOrder, SpendEvent } from './spend-ledger.js';

/** The hold decision over the whole book. */
export function holdInBook(book: SpendBook, request: HoldRequest): { events: SpendEvent[]; decision: HoldDecision } {
  const since = request.nowMs - request.windowMs;
  const first = book.counted(since)[0];
  return decideHolds(
    {
      sinceMs: since,
      spent: book.spent(since),
      oldestMs: first === undefined ? undefined : entryTime(first),
      origins: book.originsOf(request.keyId),
      longestWindowMs: book.longestWindowMs,
    },
    book,
    request,
  );
}

export function openOrdersInBook(book: SpendBook, sinceMs: number, keyId: string, atMost: number): OpenOrder[] {
  return book
    .counted(sinceMs)
    .filter((entry) => entry.order !== undefined && entry.final === undefined && entry.key_id === keyId)
    .slice(-atMost)
    .map((entry) => ({ id: entry.id, order_id: entry.order!.order_id }));
}

export function lackingInBook(book: SpendBook, sinceMs: number, keyId: string, atMost: number): LackingOrder[] {
  return [...book.entries.values()]
    .filter(
      (entry) =>
        entry.order === undefined && entry.holds.size > 0 && entry.key_id === keyId && entryTime(entry)! >= sinceMs,
    )
    .slice(0, atMost)
    .map((entry) => ({ id: entry.id, address: entry.address, total: entryAmount(entry)! }));
}

/** Outcomes only for entries the book has (an outcome of an order pruned, or never held here, is not kept). */
export function knownEvents(book: SpendBook, events: readonly SpendEvent[]): SpendEvent[] {
  return events.filter((event) => event.kind !== 'final' || book.entries.has(event.id));
}
