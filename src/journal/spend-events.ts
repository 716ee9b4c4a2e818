/** The events of a spend ledger (spend-ledger.ts): what is appended, and what spend-book.ts adds up. */

/** How an order ended, once final: kept (delivered, spent), refunded (its price back), unknown (a 404: kept counted). */
export type FinalState = 'kept' | 'refunded' | 'unknown';

export type SpendEvent =
  /** A ceiling of `window_ms` used the ledger: nothing younger than the longest such window is pruned. */
  | { kind: 'window'; window_ms: number }
  /** A request about to leave, held at its quoted price by `holder` (one run) at `at_ms`. */
  | {
      kind: 'hold';
      id: string;
      holder: string;
      address: string;
      total_trx: string;
      at_ms: number;
      key_id: string;
      origin: string;
    }
  /** The request of `holder` placed nothing (refused, never sent, or an earlier need's order): its hold goes. */
  | { kind: 'drop'; id: string; holder: string; at_ms: number }
  /** The server has this order for the id: its price, filed when the answer came (the first time only). */
  | { kind: 'order'; id: string; order_id: string; address: string; total_trx: string; at_ms: number }
  /** The order is final. */
  | { kind: 'final'; id: string; state: FinalState; at_ms: number; note: string | null };

/** An event as stored: with an id of its own, so that an import (`energy state import`) adds each once. */
export type StoredEvent = SpendEvent & { event_id: string };
