/**
 * The retry budget of one logical request, shared by the API transport and the TRON node client: it
 * decides whether a failed attempt is tried again, says so (onRetry), and waits the backoff or Retry-After.
 */
import { sleep } from '../domain/sleep.js';
import type { HttpFailure } from './http-failure.js';
import { DEFAULT_RETRY_POLICY, backoffDelayMs, isRetryableStatus, type RetryPolicy } from './retry-policy.js';

export interface RetrierOptions {
  policy?: Partial<RetryPolicy> | undefined;
  /** One line before each retry, e.g. "GET /v1/balance: HTTP 503; retrying in 1.2 s (retry 1 of 3)". */
  onRetry?: ((line: string) => void) | undefined;
  random?: (() => number) | undefined;
  sleepMs?: ((ms: number) => Promise<unknown>) | undefined;
  /** Told each wait before it starts, with the HTTP status that caused it (undefined for a network failure). */
  beforeWait?: ((delayMs: number, status: number | undefined) => void) | undefined;
}

export class Retrier {
  readonly policy: RetryPolicy;
  #used = 0;

  constructor(
    private readonly label: string,
    private readonly options: RetrierOptions = {},
  ) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
  }

  /** Attempts made so far, for messages such as "(4 attempts)". */
  get attempts(): number {
    return this.#used + 1;
  }

  /** After a connection failure or timeout: true when it has waited and another attempt should follow. */
  async afterFailure(failure: HttpFailure): Promise<boolean> {
    // "Host not found" or a TLS mismatch will be the same next time: retrying only makes the user wait.
    if (!failure.retryable || this.#used >= this.policy.retries) return false;
    this.#used += 1;
    await this.#pause(backoffDelayMs(this.#used, this.policy, this.options.random), failure.message, undefined);
    return true;
  }

  /**
   * After an HTTP status: true when it has waited and another attempt should follow. `retryAfterMs` is the
   * server's Retry-After, already read; a pause longer than the policy allows is not waited for.
   */
  async afterStatus(status: number, retryAfterMs: number | undefined): Promise<boolean> {
    if (!isRetryableStatus(status) || this.#used >= this.policy.retries) return false;
    const delay = retryAfterMs ?? backoffDelayMs(this.#used + 1, this.policy, this.options.random);
    // A server asking for a longer pause than we allow gets an answer now rather than a hung script.
    if (delay > this.policy.maxDelayMs) return false;
    this.#used += 1;
    await this.#pause(delay, `HTTP ${status}`, status);
    return true;
  }

  async #pause(delayMs: number, reason: string, status: number | undefined): Promise<void> {
    this.options.beforeWait?.(delayMs, status);
    this.options.onRetry?.(
      `${this.label}: ${reason}; retrying in ${(delayMs / 1000).toFixed(1)} s (retry ${this.#used} of ${this.policy.retries})`,
    );
    await (this.options.sleepMs ?? sleep)(delayMs);
  }
}
