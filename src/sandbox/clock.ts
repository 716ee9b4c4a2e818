/**
 * The sandbox's wall clock: the real clock plus an offset, so that a test can play a server whose clock is
 * off, plus the time a test moved it on (`advance`), so that a test waits for a delivery or an expiry
 * without sleeping through it.
 */
export class SandboxClock {
  #advancedMs = 0;

  constructor(private offsetSeconds: number) {}

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
    return Date.now() + this.offsetSeconds * 1000 + this.#advancedMs;
  }

  unixSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }
}
