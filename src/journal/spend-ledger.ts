/**
 * What `ensure --max-spend <trx>/<duration>` counts against: a ledger of events, appended and never
 * rewritten, kept where it outlives the process (the state folder, spend-ledger-file.ts; PostgreSQL,
 * state/pg/pg-spend-ledger.ts). An order is *held* (its quoted price) under its client_request_id before
 * its request leaves, checked against the ceiling in the same step (`hold`); the answer turns the hold into
 * the order (its id and price), a request that placed nothing drops it, and a final outcome settles it (a
 * refund gives the price back): those are appended (`append`) without a decision, so a host writes them
 * without reading anyone else's events. Every time is the API server's, as the run measured it when the
 * event happened: never an order's own stamps. What the events add up to is spend-book.ts; PostgreSQL adds
 * them up itself, so that no process loads the ledger.
 *
 * A ledger is named: `account <key id>` (every `ensure` of one API key, whatever the URL's spelling, the
 * addresses or the host) or `budget <name>` (`--budget`: one ceiling for whatever names it; the name is
 * exact, so `--budget A` and `--budget a` are two ledgers).
 */
import type { SpendEvent } from './spend-events.js';
import type { LedgerTotals } from './spend-totals.js';

export type { FinalState, SpendEvent, StoredEvent } from './spend-events.js';

/**
 * Hosts read the server's clock a second or two apart: nothing this close to the longest window is pruned.
 * Here, not beside the file ledger that uses it too: the PostgreSQL ledger imported it from there, loading
 * node:fs/promises and the file ledger's modules into every run with a state URL.
 */
export const PRUNE_SLACK_MS = 5 * 60_000;

/** A request to hold: its id, its address, its price. */
export interface Wanted {
  id: string;
  address: string;
  total: string;
}

/** Holds asked for in one step: who holds (one run), under which key and base URL, against which ceiling. */
export interface HoldRequest {
  holder: string;
  keyId: string;
  origin: string;
  wanted: readonly Wanted[];
  /** The ceiling: at most `trx` counted over any `windowMs`. */
  trx: string;
  windowMs: number;
  /** The server's time now, as the run measured it. */
  nowMs: number;
  /** true: decide only, hold nothing (a dry run asks whether a price would fit). */
  dry?: boolean;
}

/** Why one request was not held: what was left when its turn came, when the oldest counted entry counts from. */
export interface Shortfall {
  left: string;
  oldestMs: number | undefined;
}

export interface HoldDecision {
  /** One per request, in order: undefined where it is held, else its shortfall. */
  shortfalls: (Shortfall | undefined)[];
  /** The other base URLs this key's holds came from, when this run's is new among them. */
  otherOrigins: string[];
}

/** An order the ledger has and knows no outcome of. */
export interface OpenOrder {
  id: string;
  order_id: string;
}

/** A held request whose order the ledger lacks (its holder may have been killed between answer and line). */
export interface LackingOrder {
  id: string;
  address: string;
  total: string;
}

export interface SpendLedger {
  /** `account sha256:…` or `budget payouts`: said in messages. */
  readonly name: string;
  /**
   * Holds each request that fits, in the order given (a later, cheaper one may fit where an earlier one did
   * not), alone among every process and host holding on the ledger, and records the ceiling's window (nothing
   * younger than the longest window used is pruned).
   */
  hold(request: HoldRequest): Promise<HoldDecision>;
  /** Appends orders, drops and outcomes (an outcome only for an entry the ledger has). */
  append(events: readonly SpendEvent[], nowMs: number): Promise<void>;
  /** What counts in a window starting at `sinceMs`. */
  spent(sinceMs: number): Promise<string>;
  /** The newest orders counted since `sinceMs` with no outcome, of this key's runs: at most `atMost`. */
  openOrders(sinceMs: number, keyId: string, atMost: number): Promise<OpenOrder[]>;
  /** Held requests of this key's runs since `sinceMs` with no order: at most `atMost`. */
  lackingOrders(sinceMs: number, keyId: string, atMost: number): Promise<LackingOrder[]>;
  /** What it counts over the longest window any ceiling used on it, at `nowMs` (`energy state status`). */
  totals(nowMs: number): Promise<LedgerTotals>;
  /** Which of these requests it has an entry for (moving in: what a folder ledger counts that this one lacks). */
  has(ids: readonly string[]): Promise<Set<string>>;
}

/** The ledger of one API key's `ensure` runs. */
export function accountLedger(keyId: string): string {
  return `account ${keyId}`;
}

/** The ledger `--budget <name>` names. */
export function budgetLedger(name: string): string {
  return `budget ${name}`;
}
