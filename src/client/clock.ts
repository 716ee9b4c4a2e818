/**
 * The request clock: local time plus a remembered offset to the server's clock, so that a machine whose
 * clock is off can still sign timestamps the server accepts.
 */

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

export class RequestClock {
  #offsetSeconds: number;

  constructor(
    private readonly origin: string,
    private readonly store: OffsetStore | undefined,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.#offsetSeconds = store?.load(origin) ?? 0;
  }

  /** Unix seconds to sign with: the local clock corrected by the known offset. */
  timestamp(): number {
    return Math.floor(this.nowMs() / 1000) + this.#offsetSeconds;
  }

  get offsetSeconds(): number {
    return this.#offsetSeconds;
  }

  localMs(): number {
    return this.nowMs();
  }

  /**
   * True when the offset in use differs by more than the tolerance from `offsetSeconds` (the one a request
   * was signed with): that request's 401 may be the old offset's, and signing it again is worth it.
   */
  movedSince(offsetSeconds: number): boolean {
    return Math.abs(this.#offsetSeconds - offsetSeconds) > SKEW_TOLERANCE_SECONDS;
  }

  /**
   * Takes a fresh reading of the server clock (read between `sentAtMs` and `receivedAtMs`). Returns true
   * when the offset in use was wrong by more than the tolerance, and so was changed and saved.
   */
  adopt(serverUnixSeconds: number, sentAtMs: number, receivedAtMs: number): boolean {
    const measured = measureOffsetSeconds(serverUnixSeconds, sentAtMs, receivedAtMs);
    const corrected = Math.abs(measured - this.#offsetSeconds) > SKEW_TOLERANCE_SECONDS;
    const next = Math.abs(measured) > SKEW_TOLERANCE_SECONDS ? measured : 0;
    if (next !== this.#offsetSeconds) {
      this.#offsetSeconds = next;
      this.store?.save(this.origin, next);
    }
    return corrected;
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
