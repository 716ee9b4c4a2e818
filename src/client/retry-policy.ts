/** When to try a request again, and how long to wait first. Pure: the random source comes in. */

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff step; each retry doubles it. */
  baseDelayMs: number;
  /** Largest backoff step, and the longest Retry-After we agree to wait. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 30_000 };

/** Statuses that say "try later" rather than "this request is wrong". */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so that parallel clients
 * spread out but still wait at least half the step.
 */
export function backoffDelayMs(retryNumber: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retryNumber - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** Longest delta-seconds read as such (about 68 years, RFC 9111's overflow value); beyond it, garbage. */
const MAX_DELTA_SECONDS = 2_147_483_647;

/** Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with the day's name. */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i;

/**
 * Reads Retry-After as delta-seconds or an HTTP-date. Returns milliseconds to wait, or undefined when the
 * header is absent or not valid (negative, beyond any sensible number, not a date): the caller then falls
 * back to its own backoff, as if the server had said nothing.
 */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return seconds <= MAX_DELTA_SECONDS ? seconds * 1000 : undefined;
  }
  // Date.parse alone would read "-5" as the year -5 and "1e999" as nothing sensible either.
  if (!HTTP_DATE.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
