/**
 * The sandbox's wall clock: the real clock plus an offset, so that a test can play a server whose clock is
 * off, plus the time a test moved it on (`advance`), so that a test waits for a delivery or an expiry
 * without sleeping through it. With a time scale of n (`energy sandbox --time-scale n`) it runs n times as
 * fast from its start (measured on the monotonic clock), so that a day of deliveries, rentals' ends and
 * traffic plays in minutes; /v1/time and every stamp read it.
 */
import { performance } from 'node:perf_hooks';

export class SandboxClock {
  #advancedMs = 0;
  readonly #startMs = Date.now();
  readonly #startMonotonic = performance.now();

  constructor(
    private offsetSeconds: number,
    private readonly timeScale = 1,
  ) {
    if (!(Number.isFinite(timeScale) && timeScale > 0))
      throw new RangeError(`time scale must be a number above 0, got ${timeScale}`);
  }

  setOffset(seconds: number): void {
    if (!Number.isFinite(seconds))
      throw new RangeError(`clock offset must be a finite number of seconds, got ${seconds}`);
    this.offsetSeconds = seconds;
  }

  /** Moves the clock on by `ms` at once; it never goes back (an offset is for that). */
  advance(ms: number): void {
    if (!(Number.isSafeInteger(ms) && ms >= 0)) throw new RangeError(`advance takes whole ms ≥ 0, got ${ms}`);
    this.#advancedMs += ms;
  }

  nowMs(): number {
    const real =
      this.timeScale === 1
        ? Date.now()
        : this.#startMs + Math.floor((performance.now() - this.#startMonotonic) * this.timeScale);
    return real + this.offsetSeconds * 1000 + this.#advancedMs;
  }

  unixSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }
}
