/**
 * Is the service alive, and is it doing its job? (pure) Two probes, as Kubernetes and Prometheus split them:
 *   - live (`/livez`): cycles keep ending; not once no cycle has ended for `staleAfterMs` (a cycle stuck, or
 *     none since the start). What a restart (a timer, a container HEALTHCHECK, a liveness probe) asks: a
 *     restart cures a stuck process, and nothing else.
 *   - ready (`/readyz`, and `/healthz` as before): live, and the last `failLimit` cycles did not all fail,
 *     and --max-spend leaves room for one more order. What an operator or an alert looks at.
 */

/** Cycles in a row that must fail before the service reports itself not ready. */
export const FAILURES_TO_UNHEALTHY = 3;

/** No cycle ended for this long: three intervals, plus a minute for a slow cycle (a lock wait, retries). */
export function staleAfterMs(everyMs: number): number {
  return 3 * everyMs + 60_000;
}

/**
 * How a cycle ended: ok (every address stands), spend_limit (it ran to its end, and what it could not buy
 * --max-spend held back: the service doing its job), failed (it ended early, or an address failed).
 */
export type CycleResult = 'ok' | 'spend_limit' | 'failed';

export interface LiveReport {
  healthy: boolean;
  /** "ok", or "no cycle has ended for 63 s". */
  reason: string;
  /** ISO time the last cycle ended (or the service started), on this host's clock. */
  last_cycle_at: string;
}

export interface HealthReport {
  healthy: boolean;
  /** Why, in words: "ok", "the last 3 cycles failed", "no cycle has ended for 63 s". */
  reason: string;
  failures_in_a_row: number;
  /** ISO time of the last cycle that did its work (ok, or held at --max-spend), or null. */
  last_success_at: string | null;
  /** With --max-spend: why no order fits now ("--max-spend 8/1h: 0.200000 TRX left, …"), else absent. */
  spend_limit?: string;
}

export class Health {
  #failuresInARow = 0;
  #lastEndMs: number;
  #lastSuccessMs: number | undefined;
  #spendLimit: string | undefined;

  constructor(
    private readonly everyMs: number,
    startedMs: number,
    private readonly failLimit = FAILURES_TO_UNHEALTHY,
  ) {
    this.#lastEndMs = startedMs;
  }

  cycleEnded(result: CycleResult, atMs: number): void {
    this.#lastEndMs = atMs;
    if (result === 'failed') {
      this.#failuresInARow += 1;
    } else {
      this.#failuresInARow = 0;
      this.#lastSuccessMs = atMs;
    }
  }

  /** --max-spend has no room for one more order (its words), or undefined once it has again. */
  spendLimit(reached: string | undefined): void {
    this.#spendLimit = reached;
  }

  live(nowMs: number): LiveReport {
    const quietMs = nowMs - this.#lastEndMs;
    const stuck = quietMs > staleAfterMs(this.everyMs);
    return {
      healthy: !stuck,
      reason: stuck ? `no cycle has ended for ${Math.round(quietMs / 1000)} s` : 'ok',
      last_cycle_at: new Date(this.#lastEndMs).toISOString(),
    };
  }

  report(nowMs: number): HealthReport {
    const live = this.live(nowMs);
    const reason = !live.healthy
      ? live.reason
      : this.#failuresInARow >= this.failLimit
        ? `the last ${this.#failuresInARow} cycles failed`
        : (this.#spendLimit ?? 'ok');
    return {
      healthy: reason === 'ok',
      reason,
      failures_in_a_row: this.#failuresInARow,
      last_success_at: this.#lastSuccessMs === undefined ? null : new Date(this.#lastSuccessMs).toISOString(),
      ...(this.#spendLimit !== undefined && { spend_limit: this.#spendLimit }),
    };
  }
}
