/**
 * What a process's claims keep between runs and cycles (pg-claims.ts): the let-gos the database did not take
 * (it was restarting, or away), tried again until it answers, so that a fault costs the fault and not the
 * leases it left (issue 44 item 6); and when the claims of addresses nobody lists were last pruned. Timed on
 * the monotonic clock (`performance.now()`): a host clock that steps moves neither.
 */

/** A let-go not taken is tried again this often, and the next claim tries it first. */
const RETRY_MS = 1_000;
/** ...for at most this long: then the leases have long run out, and a later claim sees the rows as they are. */
const GIVE_UP_MS = 15 * 60_000;
/** The claims of unlisted addresses are pruned at a process's first claim, then at most this often. */
const PRUNE_EVERY_MS = 60 * 60_000;

interface Pending {
  letGo: () => Promise<unknown>;
  untilMs: number;
}

export class ClaimsUpkeep {
  readonly #pending: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  #prunedAtMs: number | undefined;

  constructor(private readonly monotonicMs: () => number = () => performance.now()) {}

  /** Lets go now; when the database does not take it, keeps it to try again. */
  async letGo(letGo: () => Promise<unknown>): Promise<void> {
    try {
      await letGo();
    } catch {
      this.#pending.push({ letGo, untilMs: this.monotonicMs() + GIVE_UP_MS });
      this.#schedule();
    }
  }

  /** The let-gos still waiting, tried once each (before a claim: its view of what is due is then right). */
  async retry(): Promise<void> {
    const now = this.monotonicMs();
    const waiting = this.#pending.splice(0).filter((pending) => pending.untilMs > now);
    for (const pending of waiting) {
      try {
        await pending.letGo();
      } catch {
        this.#pending.push(pending);
      }
    }
    if (this.#pending.length > 0) this.#schedule();
  }

  /** True when this claim should prune the claims of unlisted addresses (and counts it done). */
  pruneDue(): boolean {
    const now = this.monotonicMs();
    if (this.#prunedAtMs !== undefined && now - this.#prunedAtMs < PRUNE_EVERY_MS) return false;
    this.#prunedAtMs = now;
    return true;
  }

  /** How many let-gos wait for the database. */
  get waiting(): number {
    return this.#pending.length;
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.retry();
    }, RETRY_MS);
    // A one-shot run that ends leaves its leases to expire: they were of a run that is over.
    this.#timer.unref();
  }
}
