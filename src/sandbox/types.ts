/** Public shapes of the sandbox: its options, its handle, and the faults a test can queue. */
import type { Order, OrderFailure } from '../client/types.js';
import type { TrafficReport } from './traffic.js';

export interface SandboxOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default random 'sbx_' + 16 hex. */
  apiKey?: string;
  /** Default random 32 bytes, base64url. */
  apiSecret?: string;
  /** Default '1000.000000'. */
  startingBalance?: string;
  /** Time from creation to delivery_final; default 1500. */
  deliverAfterMs?: number;
  /** How long one rented "hour" lasts in sandbox time; default 3_600_000. */
  hourMs?: number;
  /** Token bucket per API key (per remote address for /v1/time); default { perSecond: 200, burst: 400 }. */
  rateLimit?: { perSecond: number; burst: number } | false;
  /** Default 16384; larger bodies get 413. */
  bodyLimitBytes?: number;
  /** Server clock = real clock + offset; default 0. */
  clockOffsetSeconds?: number;
  /** The clock runs this many times as fast from the start (deliveries, rentals' ends, traffic); default 1. */
  timeScale?: number;
  /** Pre-create N delivered and expired orders (paging tests, benchmarks). */
  seedOrders?: number;
  /** TRON node accounts by address (see TronAccountSeed); any other address reads as not activated. */
  tronAccounts?: Record<string, TronAccountSeed>;
  /**
   * Orders another client placed on the same account (a web dashboard, another integration), listed as the
   * newest history at start, one second apart, in the order given (the last one newest): what a client that
   * reads tolerantly must take in its stride (any client_request_id, status or address string, fields of
   * their own). They never move on and hold no money.
   */
  foreignOrders?: ForeignOrder[];
  /**
   * Fields the spec does not name, added to every success body and to every order in it (an additive v1
   * change, e.g. `{ x_price_sun: 60 }`): a client must pass them on, and fail on none of them.
   */
  extraFields?: Record<string, unknown>;
  /**
   * The order of GET /v1/energy/orders, which the spec does not give: newest first (the default), or
   * oldest first (a server whose list is in insertion order). Cursors work either way.
   */
  listOrder?: 'newest-first' | 'oldest-first';
  /**
   * The list's first page is served twice: its next_cursor, a fresh one, leads to the same orders again,
   * then on as usual (a server whose paging repeats items; the spec does not say ids are listed once).
   */
  repeatFirstPage?: boolean;
  /** GET /v1/time answers this `unix_time` instead of the clock (a wild time: -5, or one years off). */
  timeAnswer?: number;
  /**
   * Orders' `created_at` and `updated_at` are stamped this many seconds ahead of the clock that GET
   * /v1/time reads (a server stamping local time as UTC: 28800 for +8 h). Default 0.
   */
  stampsAheadSeconds?: number;
}

/** One order of `foreignOrders`: only the client_request_id is needed; the rest has defaults. */
export interface ForeignOrder {
  client_request_id: string;
  /** Default: the first seeded orders' address. Any string: another client may have sent anything. */
  address?: string;
  /** Default 65000. */
  energy?: number;
  /** Default 1. */
  duration_hours?: number;
  /** Default '2.600000'. */
  total_trx?: string;
  /** Default 'expired'. */
  status?: string;
  /** Default true. */
  lifecycle_final?: boolean;
  /** Default true. */
  delivery_final?: boolean;
  /** Default null. */
  failure?: OrderFailure | null;
  /** This order's own fields that the spec does not name, e.g. `{ source: 'dashboard' }`. */
  extra?: Record<string, unknown>;
}

export interface Sandbox {
  /** e.g. 'http://127.0.0.1:43121', no trailing slash. */
  readonly url: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  inject(fault: Fault): void;
  clearFaults(): void;
  /** Lets every request a 'hold' fault is holding go on, and drops the 'hold' faults still queued. */
  releaseHeld(): void;
  setClockOffset(seconds: number): void;
  /**
   * Moves the sandbox's clock on by `ms` (whole, ≥ 0) at once: orders deliver and expire, and the TRON node
   * follows, as if that time had passed. The API's clock (GET /v1/time, the signature window) moves with it.
   */
  advance(ms: number): void;
  setIntake(enabled: boolean): void;
  /** TRX per energy unit for each duration; merged into the current rates. */
  setRates(rates: Record<number, string>): void;
  setBalance(available: string): void;
  /** Snapshot, newest first. */
  orders(): Order[];
  /** Sets an address on the sandbox's TRON node (energy, usage, USDT, activation); replaces an earlier seed. */
  seedTronAccount(address: string, seed: TronAccountSeed): void;
  /** Delivered rentals read this many basis points short on the TRON node (drift); 0 by default. */
  setEnergyDrift(bp: number): void;
  /** getEnergyFee of the TRON node's getchainparameters, in sun per energy; 100 by default. */
  setEnergyFee(sun: number): void;
  /** The TRON node shows deliveries (and its head block) this many ms after the API does; 0 by default. */
  setTronLag(ms: number): void;
  /** The largest `limit` the order list takes (a larger one is a 400, as on a server with a cap); default 100. */
  setMaxPageSize(size: number): void;
  /** TRON node requests received, oldest first, with the TRON-PRO-API-KEY each carried. */
  tronRequests(): readonly TronRequestRecord[];
  /** Requests received, optionally only those to one path (without query), and only with one method. */
  requestCount(path?: string, method?: string): number;
  /** What the seeded addresses' transfers met so far: covered by energy, or TRX burnt. */
  traffic(): TrafficReport[];
  /** Closes the server and every socket, keep-alive ones included. */
  close(): Promise<void>;
}

/** `path` is the exact request path without query, e.g. '/v1/energy/orders'. */
export type FaultMatch = { method?: string; path?: string };

export type Fault = (
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'delay'; ms: number }
  /** The request waits, unanswered, until `releaseHeld()` (or the sandbox closes): a gate a test opens. */
  | { kind: 'hold' }
  | { kind: 'drop' }
  | { kind: 'drop-after-commit' }
  /** Commits the order, then answers only after `ms` (default: never, until the client goes or the sandbox closes). */
  | { kind: 'hold-after-commit'; ms?: number }
  | { kind: 'raw'; status: number; contentType: string; body: string }
) & { match?: FaultMatch; times?: number };

/** What a seeded TRON account holds (SandboxOptions.tronAccounts): the sandbox's chain starts from these. */
export interface TronAccountSeed {
  /** Default true; false answers `{}` until an order to the address is delivered. */
  activated?: boolean;
  /** Energy the address holds by itself (staked or delegated elsewhere). Default 0. */
  energy?: number;
  /** Energy used in the current window. Default 0. */
  energyUsed?: number;
  /** Free bandwidth used (of 600). Default 0. */
  bandwidthUsed?: number;
  /** Staked or delegated bandwidth (NetLimit). Default 0. */
  bandwidth?: number;
  /** USDT held, in its smallest unit (6 decimals). Default 0. */
  usdt?: bigint;
  /** A smart contract's account (`"type":"Contract"`): java-tron never delegates to one. Default false. */
  contract?: boolean;
  /** USDT transfers it sends an hour of sandbox time (traffic.ts), each paid with its energy or burnt TRX. */
  transfersPerHour?: number;
}

/** One TRON node request as the sandbox saw it, for tests that count effects. */
export interface TronRequestRecord {
  path: string;
  apiKey: string | undefined;
}
