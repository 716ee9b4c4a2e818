/**
 * What a ceiling asks of the folder's ledger as a process holds it (spend-folder-book.ts: the settled entries
 * compactly, the others whole): the same questions PostgreSQL answers with SQL (state/pg/pg-spend-queries.ts).
 * Orders without an outcome and holds without an order are never settled: the whole entries answer for them.
 */
import { entryAmount, entryTime } from '../../journal/spend-book.js';
import type { FolderBook } from './spend-folder-book.js';
import { decideHolds } from '../../journal/spend-decide.js';
import type { HoldDecision, HoldRequest, LackingOrder, OpenOrder, SpendEvent } from '../../journal/spend-ledger.js';

/** The hold decision over the whole book. */
export function holdInBook(book: FolderBook, request: HoldRequest): { events: SpendEvent[]; decision: HoldDecision } {
  const since = request.nowMs - request.windowMs;
  const window = book.window(since);
  return decideHolds(
    {
      sinceMs: since,
      spent: window.spent,
      oldestMs: window.oldestMs,
      origins: book.originsOf(request.keyId),
      longestWindowMs: book.longestWindowMs,
    },
    book,
    request,
  );
}

export function openOrdersInBook(book: FolderBook, sinceMs: number, keyId: string, atMost: number): OpenOrder[] {
  return book.book
    .counted(sinceMs)
    .filter((entry) => entry.order !== undefined && entry.final === undefined && entry.key_id === keyId)
    .slice(-atMost)
    .map((entry) => ({ id: entry.id, order_id: entry.order!.order_id }));
}

export function lackingInBook(book: FolderBook, sinceMs: number, keyId: string, atMost: number): LackingOrder[] {
  return [...book.entries.values()]
    .filter(
      (entry) =>
        entry.order === undefined && entry.holds.size > 0 && entry.key_id === keyId && entryTime(entry)! >= sinceMs,
    )
    .slice(0, atMost)
    .map((entry) => ({ id: entry.id, address: entry.address, total: entryAmount(entry)! }));
}

/** Outcomes only for entries the book has (an outcome of an order pruned, or never held here, is not kept). */
export function knownEvents(book: FolderBook, events: readonly SpendEvent[]): SpendEvent[] {
  return events.filter((event) => event.kind !== 'final' || book.has(event.id));
}
