/**
 * The server's clock as this process knows it: the last accepted `GET /v1/time` reading advanced by the
 * monotonic clock, so that signing, the ledger, holds, the journal and gauges agree on "now" even when the
 * host clock is off or steps (issue 44). The measured offset is remembered between runs as the next run's
 * first estimate.
 */
import { monotonicMs as hostMonotonicMs } from '../domain/monotonic.js';

/** Where the measured offset is kept between runs (a small file in the config folder, see config/). */
export interface OffsetStore {
  load(origin: string): number | undefined;
  save(origin: string, offsetSeconds: number): void;
}

/**
 * The spec gives `unix_time` no range, but some values cannot be the time (issue 32): one negative reading,
 * stored as the offset, made every signed command fail for its lifetime. A server time before 2020 or
 * from 2100 on is refused, and so is one more than five years from this host's clock while this host's
 * clock is itself within those years (a host whose clock reset to 1970 takes the server's word).
 */
export const EARLIEST_SERVER_TIME = Date.UTC(2020, 0, 1) / 1000;
export const LATEST_SERVER_TIME = Date.UTC(2100, 0, 1) / 1000;
export const MAX_CLOCK_DISTANCE_SECONDS = 5 * 365 * 86_400;

/** Why `serverUnixSeconds` cannot be the server's time read at `localMs`, or undefined when it can. */
export function implausibleServerTime(serverUnixSeconds: number, localMs: number): string | undefined {
  if (!Number.isSafeInteger(serverUnixSeconds)) return 'not a whole number of seconds';
  if (serverUnixSeconds < EARLIEST_SERVER_TIME) return 'before 2020';
  if (serverUnixSeconds >= LATEST_SERVER_TIME) return 'after 2099';
  const local = localMs / 1000;
  const hostPlausible = local >= EARLIEST_SERVER_TIME && local < LATEST_SERVER_TIME;
  if (hostPlausible && Math.abs(serverUnixSeconds - local) > MAX_CLOCK_DISTANCE_SECONDS)
    return "more than five years from this host's clock";
  return undefined;
}

/** Offsets this small are within ordinary drift and network delay: not worth correcting. */
export const SKEW_TOLERANCE_SECONDS = 5;

/**
 * A reading further than this from the clock's own estimate is not taken on its word: the server's clock is
 * read again, and two that agree win (issue 44: one answer 2 h behind filed a service's orders 2 h back).
 */
export const READ_AGAIN_BEYOND_MS = 120_000;

/** The most readings one check takes before it gives up on a server whose answers never agree. */
export const MAX_READINGS = 3;

/** A reading of the server's clock: its time in ms at the monotonic instant `monoMs`. */
interface Reading {
  serverMs: number;
  monoMs: number;
}

/** What became of one reading offered to the clock. */
export interface Offered {
  /** Taken: the clock now runs from it. False: it disagrees with what the clock knew; read again. */
  taken: boolean;
  /** Taken, and it moved the clock by more than the tolerance: a request signed before may be signed again. */
  corrected: boolean;
}

/**
 * The one server clock of a client (so of a process: the CLI makes one client): server time is the last
 * accepted `GET /v1/time` reading plus the monotonic time (`performance.now()`'s, domain/monotonic.ts) elapsed since it, so that
 * a host clock stepped back or forward after the reading moves nothing. Before any reading this process,
 * the estimate is the host clock plus the offset remembered between runs (the offset file): signing works
 * at once on a skewed host, and the first reading is checked against it.
 */
export class RequestClock {
  #anchor: Reading | undefined;
  /** A reading that disagreed with the estimate, waiting for one that agrees with it. */
  #doubted: Reading | undefined;
  /** Server minus host clock before the first reading: the remembered offset, in ms. */
  readonly #rememberedMs: number;
  /** The offset last saved (or loaded), in whole seconds. */
  #savedSeconds: number;
  #epoch = 0;

  constructor(
    private readonly origin: string,
    private readonly store: OffsetStore | undefined,
    private readonly wallMs: () => number = Date.now,
    private readonly monotonicMs: () => number = hostMonotonicMs,
  ) {
    this.#savedSeconds = store?.load(origin) ?? 0;
    this.#rememberedMs = this.#savedSeconds * 1000;
  }

  /** The server's time now, in whole ms (as `Date.now()` is: ledgers and stamps store integers). */
  serverNowMs(): number {
    return Math.floor(this.#estimateAt(this.monotonicMs()));
  }

  /** Unix seconds to sign with: the server's time as this clock knows it. */
  timestamp(): number {
    return Math.floor(this.serverNowMs() / 1000);
  }

  /** Server minus host clock now, in whole seconds (what `energy time` shows; it moves if the host's steps). */
  get offsetSeconds(): number {
    return Math.round((this.serverNowMs() - this.wallMs()) / 1000);
  }

  /** Counts the corrections: a request signed at an earlier epoch may be worth signing again. */
  get epoch(): number {
    return this.#epoch;
  }

  /** True when the clock was corrected since `epoch` (the one a request was signed at). */
  movedSince(epoch: number): boolean {
    return this.#epoch !== epoch;
  }

  /** This host's wall clock (shown beside the server's, and for the plausibility check). */
  localMs(): number {
    return this.wallMs();
  }

  /** The monotonic clock readings are timed on. */
  monoMs(): number {
    return this.monotonicMs();
  }

  /**
   * Offers a reading of the server clock (`serverUnixSeconds`, read between the monotonic instants `sentMono`
   * and `receivedMono`). Taken when it agrees (within READ_AGAIN_BEYOND_MS) with the clock's estimate, or
   * with the reading doubted before it; otherwise it is doubted in turn, and the caller reads again.
   */
  offer(serverUnixSeconds: number, sentMono: number, receivedMono: number): Offered {
    // The server's reading was taken somewhere in the exchange and truncated to the second: compare the
    // middle of that second with the middle of the exchange.
    const reading = { serverMs: serverUnixSeconds * 1000 + 500, monoMs: (sentMono + receivedMono) / 2 };
    const agrees = (other: number) => Math.abs(reading.serverMs - other) <= READ_AGAIN_BEYOND_MS;
    const doubted = this.#doubted;
    const estimate = this.#estimateAt(reading.monoMs);
    if (!agrees(estimate) && !(doubted !== undefined && agrees(doubted.serverMs + reading.monoMs - doubted.monoMs))) {
      this.#doubted = reading;
      return { taken: false, corrected: false };
    }
    this.#doubted = undefined;
    this.#anchor = reading;
    const corrected = Math.abs(reading.serverMs - estimate) > SKEW_TOLERANCE_SECONDS * 1000;
    if (corrected) this.#epoch += 1;
    this.#remember(reading);
    return { taken: true, corrected };
  }

  #estimateAt(mono: number): number {
    const anchor = this.#anchor;
    if (anchor !== undefined) return anchor.serverMs + (mono - anchor.monoMs);
    return this.wallMs() - (this.monotonicMs() - mono) + this.#rememberedMs;
  }

  /** Keeps the offset (0 within the tolerance) for the next run's first estimate. */
  #remember(reading: Reading): void {
    const wallAtReading = this.wallMs() - (this.monotonicMs() - reading.monoMs);
    const measured = Math.round((reading.serverMs - wallAtReading) / 1000);
    const next = Math.abs(measured) > SKEW_TOLERANCE_SECONDS ? measured : 0;
    if (next === this.#savedSeconds) return;
    this.#savedSeconds = next;
    this.store?.save(this.origin, next);
  }
}

/**
 * Server minus local clock, in whole seconds. The server's reading was taken somewhere during the
 * exchange and truncated to the second, so compare the middle of that second with the middle of the
 * exchange; otherwise two agreeing clocks would often measure as one second apart.
 */
export function measureOffsetSeconds(serverUnixSeconds: number, sentAtMs: number, receivedAtMs: number): number {
  const localMidpointSeconds = (sentAtMs + receivedAtMs) / 2 / 1000;
  return Math.round(serverUnixSeconds + 0.5 - localMidpointSeconds);
}

/** "the local clock is 900 s behind the server's", from an offset of server minus local seconds. */
export function describeOffset(offsetSeconds: number): string {
  if (offsetSeconds === 0) return "the local clock agrees with the server's";
  return `the local clock is ${Math.abs(offsetSeconds)} s ${offsetSeconds > 0 ? 'behind' : 'ahead of'} the server's`;
}
