/**
 * The monotonic clock in milliseconds, as `performance.now()` counts them, from `process.hrtime()`: the
 * global `performance` loads node:perf_hooks when first touched, ~1 ms of CPU at start-up on every Node
 * line, which `balance` and `time` paid for one reading (issue 48). Only differences between readings mean
 * anything (the origin is arbitrary, as performance.now()'s is to a reader).
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1000 + nanoseconds / 1e6;
}
