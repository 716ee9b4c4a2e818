/**
 * The spec's "repeated failures can return 429": after MAX_FAILURES failed authentications within WINDOW_MS
 * from one remote address, that address is refused until enough failures have aged out of the window.
 */
import { performance } from 'node:perf_hooks';

const WINDOW_MS = 60_000;
const MAX_FAILURES = 20;

export class AuthFailureTracker {
  /** Monotonic times of recent failures per remote address, oldest first. */
  private readonly failures = new Map<string, number[]>();

  record(remote: string): void {
    const list = this.recent(remote, performance.now());
    list.push(performance.now());
    this.failures.set(remote, list);
  }

  /** 0 when the address may try again, else the whole seconds until it may. */
  retryAfter(remote: string): number {
    const now = performance.now();
    const list = this.recent(remote, now);
    if (list.length < MAX_FAILURES) return 0;
    // Allowed again once the count drops below the maximum, i.e. when this entry leaves the window.
    const unblocking = list[list.length - MAX_FAILURES] ?? now;
    return Math.max(1, Math.ceil((unblocking + WINDOW_MS - now) / 1000));
  }

  private recent(remote: string, now: number): number[] {
    const list = this.failures.get(remote) ?? [];
    const fresh = list.filter((at) => now - at < WINDOW_MS);
    if (fresh.length === 0) this.failures.delete(remote);
    else this.failures.set(remote, fresh);
    return fresh;
  }
}
