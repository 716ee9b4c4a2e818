/**
 * Is the service doing its job? (pure) Unhealthy once the last `failLimit` cycles in a row failed, or when
 * no cycle has ended for `staleAfterMs` (a cycle stuck, or none since the start): what `/healthz` answers
 * 503 for, so that a container's HEALTHCHECK or a probe restarts it, or an operator looks.
 */

/** Cycles in a row that must fail before the service reports itself unhealthy. */
export const FAILURES_TO_UNHEALTHY = 3;

/** No cycle ended for this long: three intervals, plus a minute for a slow cycle (a lock wait, retries). */
export function staleAfterMs(everyMs: number): number {
  return 3 * everyMs + 60_000;
}

export interface HealthReport {
  healthy: boolean;
  /** Why, in words: "ok", "the last 3 cycles failed", "no cycle has ended for 63 s". */
  reason: string;
  failures_in_a_row: number;
  /** ISO time of the last cycle that succeeded, or null. */
  last_success_at: string | null;
  /** With --max-spend: why no order is placed now ("--max-spend 8/1h is reached: …"), else absent. */
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

  cycleEnded(ok: boolean, atMs: number): void {
    this.#lastEndMs = atMs;
    if (ok) {
      this.#failuresInARow = 0;
      this.#lastSuccessMs = atMs;
    } else {
      this.#failuresInARow += 1;
    }
  }

  /** --max-spend reached (its words), or undefined once orders fit under it again. */
  spendLimit(reached: string | undefined): void {
    this.#spendLimit = reached;
  }

  report(nowMs: number): HealthReport {
    const quietMs = nowMs - this.#lastEndMs;
    const reason =
      this.#failuresInARow >= this.failLimit
        ? `the last ${this.#failuresInARow} cycles failed`
        : quietMs > staleAfterMs(this.everyMs)
          ? `no cycle has ended for ${Math.round(quietMs / 1000)} s`
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
