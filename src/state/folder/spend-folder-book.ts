/**
 * A folder ledger as a process holds it: the settled entries compactly (spend-settled.ts, from the
 * checkpoint), and as whole entries only the others (orders without an outcome, holds, drops) and what was
 * read since the checkpoint (spend-book.ts). An event of a settled id changes nothing (its order and outcome
 * stand) and is not kept; an event of any other id goes to its entry. `settle` moves the entries that have
 * settled into the compact part, which is what a checkpoint then writes.
 */
import { sumAmounts } from '../../domain/money.js';
import { entryAmount, entryTime, SpendBook, type SpendEntry } from '../../journal/spend-book.js';
import type { SpendEvent } from '../../journal/spend-events.js';
import type { LedgerTotals } from '../../journal/spend-totals.js';
import { amountOf, isSettled, SettledIndex } from './spend-settled.js';

/** The window as both parts count it. */
export interface CountedWindow {
  spent: string;
  entries: number;
  oldestMs: number | undefined;
}

/**
 * Whole entries read since the last move before the settled ones among them are made compact: 2,000, or an
 * eighth of the compact ones (each move copies them all: a log read from its start moves about 30 times).
 */
const SETTLE_EVERY = 2_000;

export class FolderBook {
  /** How many entries were whole after the last move (the open ones stay: they do not count again). */
  #wholeAfterSettle = 0;
  /** The entries held whole: open ones, and settled ones read since the checkpoint. */
  readonly book = new SpendBook();
  /** The base URLs of each key's holds among the settled entries. */
  readonly settledOrigins: Map<string, Set<string>>;

  constructor(
    public settled = new SettledIndex(),
    origins: Iterable<[string, string]> = [],
    public longestWindowMs = 0,
    public newestMs = -Infinity,
  ) {
    this.settledOrigins = new Map();
    for (const [keyId, origin] of origins) this.#addOrigin(keyId, origin);
  }

  /** The entries held whole (open, or read since the checkpoint): what a test may look into. */
  get entries(): ReadonlyMap<string, SpendEntry> {
    return this.book.entries;
  }

  apply(event: SpendEvent): void {
    if (event.kind === 'window') {
      this.longestWindowMs = Math.max(this.longestWindowMs, event.window_ms);
      return;
    }
    this.newestMs = Math.max(this.newestMs, event.at_ms);
    if (!this.book.entries.has(event.id) && this.settled.has(event.id)) return;
    this.book.apply(event);
  }

  has(id: string): boolean {
    return this.book.entries.has(id) || this.settled.has(id);
  }

  /** What counts in a window starting at `sinceMs`. */
  window(sinceMs: number): CountedWindow {
    const compact = this.settled.window(sinceMs);
    const whole = this.book.counted(sinceMs);
    const first = whole[0] === undefined ? undefined : entryTime(whole[0]);
    const oldest = [compact.oldestMs, first].filter((at): at is number => at !== undefined);
    return {
      spent: sumAmounts([amountOf(compact.micro), ...whole.map((entry) => entryAmount(entry)!)]),
      entries: compact.entries + whole.length,
      oldestMs: oldest.length === 0 ? undefined : Math.min(...oldest),
    };
  }

  spent(sinceMs: number): string {
    return this.window(sinceMs).spent;
  }

  /** As spend-book.ts's: a settled id has an order, so holding it again costs nothing. */
  costOfHold(id: string, total: string, sinceMs: number): string {
    if (!this.book.entries.has(id) && this.settled.has(id)) return '0.000000';
    return this.book.costOfHold(id, total, sinceMs);
  }

  originsOf(keyId: string): Set<string> {
    return new Set([...this.book.originsOf(keyId), ...(this.settledOrigins.get(keyId) ?? [])]);
  }

  /** Every (key id, base URL) pair of the settled entries' holds. */
  origins(): [string, string][] {
    return [...this.settledOrigins].flatMap(([keyId, set]) =>
      [...set].map((origin): [string, string] => [keyId, origin]),
    );
  }

  /** Forgets the whole entries no window reaches (counted from before `beforeMs`, or counting nothing): how many. */
  forget(beforeMs: number): number {
    const ids = this.book.prunable(beforeMs);
    this.book.forget(ids);
    return ids.length;
  }

  /** Moves the settled whole entries into the compact part, leaving out what counts from before `beforeMs`. */
  settle(beforeMs: number): void {
    const settled = [...this.book.entries.values()].filter(isSettled);
    if (settled.length > 0 || this.settled.deadCount(beforeMs) > 0) {
      for (const entry of settled)
        if (entry.key_id !== undefined && entry.origin !== undefined) this.#addOrigin(entry.key_id, entry.origin);
      this.settled = this.settled.merged(settled, beforeMs);
      this.book.forget(settled.map((entry) => entry.id));
    }
    this.#wholeAfterSettle = this.book.entries.size;
  }

  /** Settles once enough more entries are whole than after the last time: what a read holds whole stays small. */
  settleWhenDue(): void {
    if (this.book.entries.size >= this.#wholeAfterSettle + Math.max(SETTLE_EVERY, this.settled.size / 8))
      this.settle(-Infinity);
  }

  #addOrigin(keyId: string, origin: string): void {
    const set = this.settledOrigins.get(keyId) ?? new Set<string>();
    set.add(origin);
    this.settledOrigins.set(keyId, set);
  }
}

/** The ledger's totals for `energy state status` (journal/spend-totals.ts): its longest window, as of `nowMs`. */
export function ledgerTotals(ledger: string, book: FolderBook, nowMs: number): LedgerTotals {
  const since = nowMs - book.longestWindowMs;
  const window = book.window(since);
  return { ledger, longest_window_ms: book.longestWindowMs, entries: window.entries, spent_trx: window.spent };
}
