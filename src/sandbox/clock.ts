/** The sandbox's wall clock: the real clock plus an offset, so that a test can play a server whose clock is off. */
export class SandboxClock {
  constructor(private offsetSeconds: number) {}

  setOffset(seconds: number): void {
    if (!Number.isFinite(seconds))
      throw new RangeError(`clock offset must be a finite number of seconds, got ${seconds}`);
    this.offsetSeconds = seconds;
  }

  nowMs(): number {
    return Date.now() + this.offsetSeconds * 1000;
  }

  unixSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }
}
