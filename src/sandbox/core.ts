/** The sandbox's state: everything a request handler may read or change. */
import { AuthFailureTracker } from './auth-failures.js';
import { SandboxClock } from './clock.js';
import { FaultQueue } from './fault-queue.js';
import type { ResolvedOptions } from './options.js';
import { OrderBook } from './order-book.js';
import { Pricing } from './pricing.js';
import { RateLimiter } from './rate-limiter.js';
import { TronLedger } from './tron-ledger.js';

export interface SandboxCore {
  readonly options: ResolvedOptions;
  readonly clock: SandboxClock;
  readonly book: OrderBook;
  readonly pricing: Pricing;
  readonly faults: FaultQueue;
  /** The TRON node's accounts (`/wallet/...`), coherent with the book's orders. */
  readonly tron: TronLedger;
  /** Undefined when rate limiting is off (rateLimit: false); that also turns off the auth-failure lockout. */
  readonly limiter: RateLimiter | undefined;
  readonly authFailures: AuthFailureTracker | undefined;
  intake: boolean;
  /** The largest `limit` GET /v1/energy/orders accepts. */
  maxPageSize: number;
  /** Requests received by path (without query), for tests that assert that nothing was sent. */
  readonly requestsByPath: Map<string, number>;
  /** The same by `METHOD path`: a GET listing orders is not an order placed. */
  readonly requestsByMethod: Map<string, number>;
  /** Pending 'delay' fault timers, cleared on close so that the process can exit. */
  readonly timers: Set<NodeJS.Timeout>;
  /** Requests a 'hold' fault is holding: each one's way on, called by `releaseHeld()` or on close. */
  readonly held: Set<() => void>;
}

export function createCore(options: ResolvedOptions): SandboxCore {
  const clock = new SandboxClock(options.clockOffsetSeconds, options.timeScale);
  const timing = { deliverAfterMs: options.deliverAfterMs, hourMs: options.hourMs };
  const book = new OrderBook(timing, options.startingBalance, options.seedOrders, clock.nowMs(), {
    foreign: options.foreignOrders,
    extraFields: options.extraFields,
    stampsAheadSeconds: options.stampsAheadSeconds,
  });
  const tron = new TronLedger(book);
  for (const [address, seed] of Object.entries(options.tronAccounts)) tron.seed(address, seed, clock.nowMs());
  return {
    options,
    clock,
    book,
    tron,
    pricing: new Pricing(),
    faults: new FaultQueue(),
    limiter: options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit),
    authFailures: options.rateLimit === false ? undefined : new AuthFailureTracker(),
    intake: true,
    maxPageSize: 100,
    requestsByPath: new Map(),
    requestsByMethod: new Map(),
    timers: new Set(),
    held: new Set(),
  };
}
