/**
 * Token buckets, one per key (an API key, or a remote address for the anonymous route). Uses the monotonic
 * clock so that moving the sandbox clock never refills or drains a bucket.
 */
import { performance } from 'node:perf_hooks';

export interface RateLimit {
  perSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly limit: RateLimit) {
    if (!(limit.perSecond > 0) || !Number.isFinite(limit.perSecond)) {
      throw new RangeError(`rateLimit.perSecond must be a positive number, got ${limit.perSecond}`);
    }
    if (!(limit.burst >= 1) || !Number.isFinite(limit.burst)) {
      throw new RangeError(`rateLimit.burst must be at least 1, got ${limit.burst}`);
    }
  }

  /** Takes one token: 0 when the request may pass, otherwise the whole seconds (≥ 1) until a token is back. */
  take(key: string): number {
    const now = performance.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.limit.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.limit.perSecond));
  }
}
