/**
 * The one request loop, shared by the Energy API transport and the TRON node client: each attempt ends at
 * once on abort, waits out a 429 hold set by any call on the same client, spends one retry budget (the
 * Retrier), reads Retry-After, and, for a request that changes something, remembers whether it may have
 * arrived, so that the final error is built saying whether its outcome is unknown.
 */
import { CliError, NetworkError } from '../domain/errors.js';
import { monotonicMs } from '../domain/monotonic.js';
import { sleep } from '../domain/sleep.js';
import { abortable, throwIfAborted } from './abortable.js';
import { HttpFailure } from './http-failure.js';
import type { HttpResponse } from './http.js';
import { Retrier } from './retrier.js';
import { isRetryableStatus, parseRetryAfter, type RetryPolicy } from './retry-policy.js';

/**
 * No request leaves a client before this time, set by a 429's Retry-After: concurrent callers (a batch's
 * workers) pause together once, instead of each meeting its own 429.
 */
export class RequestHold {
  untilMs = 0;
}

/** How a client runs its attempts: one per client, shared by its calls. */
export interface AttemptSettings {
  policy: RetryPolicy;
  hold: RequestHold;
  /** Closes what is in flight (the connection) when the signal fires. */
  cutOff: () => void;
  signal?: AbortSignal | undefined;
  onRetry?: ((line: string) => void) | undefined;
  random?: (() => number) | undefined;
  sleepMs?: ((ms: number) => Promise<unknown>) | undefined;
  nowMs?: (() => number) | undefined;
}

/** A client's settings for its connection: a hold of its own, and a cut-off that closes the connection. */
export function attemptSettings(
  policy: RetryPolicy,
  connection: { close(): Promise<unknown> },
  options: Pick<AttemptSettings, 'signal' | 'onRetry' | 'random' | 'sleepMs' | 'nowMs'>,
): AttemptSettings {
  const { signal, onRetry, random, sleepMs, nowMs } = options;
  return {
    policy,
    hold: new RequestHold(),
    cutOff: () => void connection.close(),
    signal,
    onRetry,
    random,
    sleepMs,
    nowMs,
  };
}

/** One logical request: how to send an attempt and how to read its answer. */
export interface RequestSteps<T> {
  /** Names the request in retry lines, e.g. `POST /v1/energy/orders`. */
  label: string;
  /** Names the request and where it went in the final network error. */
  failureLabel: string;
  /** False for a request that changes something: a failure after it may have arrived is marked uncertain. */
  idempotent: boolean;
  exchange: () => Promise<HttpResponse>;
  /**
   * A 2xx answer into data; throws a CliError when it breaks the spec, built with `outcomeUncertain` (true
   * for a request that changes something: it arrived, and only its answer is unreadable).
   */
  decode: (response: HttpResponse, outcomeUncertain: boolean) => T;
  /** A non-2xx answer worth one more attempt at once, outside the budget (the API's clock check on 401). */
  againAtOnce?: ((response: HttpResponse) => Promise<boolean>) | undefined;
  /** The server's clock now, in ms: a Retry-After HTTP-date is on it. */
  serverNowMs: () => number;
  retryAfter: (response: HttpResponse) => string | undefined;
  /**
   * The error for a final non-2xx answer, built with `outcomeUncertain`; `tooLong` explains a Retry-After
   * beyond what energy waits.
   */
  failure: (
    response: HttpResponse,
    retryAfterMs: number | undefined,
    tooLong: string | undefined,
    outcomeUncertain: boolean,
  ) => CliError;
}

/** "1 attempt", "4 attempts": the one wording of every "gave up" message. */
function describeAttempts(count: number): string {
  return `${count} attempt${count > 1 ? 's' : ''}`;
}

/** 45 → "45 s", 600 → "10 min", 7200 → "2.0 h". */
function describeWait(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

export async function runAttempts<T>(settings: AttemptSettings, steps: RequestSteps<T>): Promise<T> {
  const { policy, hold, signal } = settings;
  // Holds are intervals: the monotonic clock, unless a test gives its own.
  const nowMs = settings.nowMs ?? monotonicMs;
  const guard = <R>(work: Promise<R>) => abortable(work, signal, settings.cutOff);
  const pause = (ms: number) => guard((settings.sleepMs ?? sleep)(ms));
  /** The hold this request set itself (and has already waited out). */
  let ownHold = 0;
  const retrier = new Retrier(steps.label, {
    policy,
    onRetry: settings.onRetry,
    random: settings.random,
    // A pause between attempts ends at once on abort, like the attempts themselves.
    sleepMs: pause,
    beforeWait: (delayMs, status) => {
      if (status !== 429) return;
      hold.untilMs = Math.max(hold.untilMs, nowMs() + delayMs);
      ownHold = hold.untilMs;
    },
  });
  /** Some attempt may have reached the server (a request that changes nothing leaves no doubt to report). */
  let uncertain = false;
  const doubt = () => !steps.idempotent && uncertain;
  for (;;) {
    throwIfAborted(signal);
    const held = hold.untilMs - nowMs();
    if (held > 0 && hold.untilMs !== ownHold) await pause(held);
    const outcome = await guard(steps.exchange()).catch((error: unknown) => {
      if (error instanceof HttpFailure) return error;
      throw error;
    });
    if (outcome instanceof HttpFailure) {
      uncertain ||= !outcome.neverSent;
      if (await retrier.afterFailure(outcome)) continue;
      throw new NetworkError(`${steps.failureLabel}: ${outcome.message} (${describeAttempts(retrier.attempts)})`, {
        cause: outcome,
        outcomeUncertain: doubt(),
      });
    }
    const { status } = outcome;
    if (status >= 500) uncertain = true;
    // The server accepted the request; if its answer is unreadable, what it did is not known.
    if (status >= 200 && status < 300) return steps.decode(outcome, !steps.idempotent);
    if (steps.againAtOnce !== undefined && (await steps.againAtOnce(outcome))) continue;
    const retryAfterMs = parseRetryAfter(steps.retryAfter(outcome), steps.serverNowMs());
    if (await retrier.afterStatus(status, retryAfterMs)) continue;
    const tooLong =
      isRetryableStatus(status) && retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs
        ? `the server asks to wait ${describeWait(Math.ceil(retryAfterMs / 1000))}, longer than the ${describeWait(policy.maxDelayMs / 1000)} energy waits: try again later`
        : undefined;
    throw steps.failure(outcome, retryAfterMs, tooLong, doubt());
  }
}
