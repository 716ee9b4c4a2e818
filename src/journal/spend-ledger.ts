/**
 * What `ensure --max-spend <trx>/<duration>` counts against: the orders this service (or run) placed, with
 * their price and the server's time of placing, kept where they survive a restart. A small interface, so that
 * the state folder's file (spend-ledger-file.ts) and a shared store (PostgreSQL, for several hosts) can both
 * hold it. Every time is on the API server's clock (an order's `created_at`), never a host's.
 */
import { sumAmounts } from '../domain/money.js';

export interface SpendEntry {
  /** The order's id on the server: an order is recorded once. */
  order_id: string;
  address: string;
  /** What the order cost, as the server said (six decimals). */
  total_trx: string;
  /** When it was placed: its `created_at`, in ms on the server's clock. */
  at_ms: number;
  /** placed: not final yet · kept: delivered, its price spent · refunded: it failed, its price returned. */
  state: 'placed' | 'kept' | 'refunded';
}

export interface SpendLedger {
  /** The entries placed at `sinceMs` or later (server clock), oldest first. */
  read(sinceMs: number): Promise<SpendEntry[]>;
  /** Records an order placed (state `placed`); an order id already recorded is left as it is. */
  record(entry: Omit<SpendEntry, 'state'>): Promise<void>;
  /** An order's outcome once final: `refunded` gives its price back to the ceiling. An unknown id: nothing. */
  settle(orderId: string, state: 'kept' | 'refunded'): Promise<void>;
  /** Entries placed before `beforeMs` may be dropped: no ceiling reaches back that far. */
  forget(beforeMs: number): Promise<void>;
}

/** What counts against a ceiling: every entry but the refunded ones, for the given addresses. */
export function spentOf(entries: readonly SpendEntry[], addresses: ReadonlySet<string>): string {
  return sumAmounts(
    entries.filter((entry) => entry.state !== 'refunded' && addresses.has(entry.address)).map((e) => e.total_trx),
  );
}
