/**
 * Sends one API operation: builds the URL, serialises the body once, signs each attempt afresh over the
 * same bytes, retries what may be retried, corrects the clock once on 401, and decodes the answer.
 */
import { AuthError, CliError, NetworkError } from '../domain/errors.js';
import { abortable, throwIfAborted } from './abortable.js';
import { encodeQuery, signRequest } from '../signing/index.js';
import { parseBaseUrl } from './base-url.js';
import { RequestClock, describeOffset, type OffsetStore } from './clock.js';
import { decodeFailure, decodeSuccess, retryAfterHeader } from './decode.js';
import {
  DEFAULT_TIMEOUTS,
  HttpConnection,
  HttpFailure,
  type HttpResponse,
  type HttpTimeouts,
  type LookupFunction,
} from './http.js';
import { redactAuthorization } from './redact.js';
import { loggedExchange } from './logged-exchange.js';
import { Retrier } from './retrier.js';
import { DEFAULT_RETRY_POLICY, isRetryableStatus, parseRetryAfter, type RetryPolicy } from './retry-policy.js';
import { timeResponse } from './schemas.js';
import type { Check } from './shape.js';

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

export interface TransportOptions {
  /** Origin, optionally with a path prefix; `/v1/...` paths are appended to it. */
  baseUrl: URL;
  credentials?: Credentials | undefined;
  timeouts?: Partial<HttpTimeouts>;
  retryPolicy?: Partial<RetryPolicy>;
  /** Keeps the measured clock offset between runs. */
  offsetStore?: OffsetStore | undefined;
  /** Where proxy variables are read (HTTPS_PROXY, HTTP_PROXY, NO_PROXY); default process.env. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Request and response lines, already redacted (for --verbose). */
  log?: ((line: string) => void) | undefined;
  /** One line before each retry, e.g. "retrying in 1.2 s". */
  onRetry?: ((line: string) => void) | undefined;
  /**
   * Ends the call at once when aborted (Ctrl-C, SIGTERM): the connection is closed and the call rejects
   * with the signal's reason. Nothing is retried after it.
   */
  signal?: AbortSignal | undefined;
  nowMs?: () => number;
  random?: () => number;
  sleepMs?: (ms: number) => Promise<unknown>;
  /** Host name resolution, as node:net's `lookup` (default: the system resolver); lets tests stay off DNS. */
  lookup?: LookupFunction | undefined;
}

export interface ApiCall<T> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  /**
   * Serialised to JSON once; every attempt sends (and signs) these same bytes. A string is sent as is:
   * the bytes of an earlier request, resent exactly.
   */
  body?: object | string;
  auth: boolean;
  check: Check<T>;
}

export interface ApiResult<T> {
  status: number;
  data: T;
}

/** 45 → "45 s", 600 → "10 min", 7200 → "2.0 h". */
function describeWait(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

export { DEFAULT_TIMEOUTS };

export class Transport {
  readonly clock: RequestClock;
  readonly #options: TransportOptions;
  readonly #policy: RetryPolicy;
  readonly #http: HttpConnection;
  readonly #basePath: string;
  /** No request leaves before this time: set by a 429's Retry-After. */
  #holdUntilMs = 0;

  constructor(options: TransportOptions) {
    // The library keeps the CLI's rule: no secret-signed request in clear text off this machine.
    parseBaseUrl(options.baseUrl.href);
    this.#options = options;
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy };
    this.#basePath = options.baseUrl.pathname.replace(/\/+$/, '');
    this.#http = new HttpConnection(
      options.baseUrl.origin,
      { ...DEFAULT_TIMEOUTS, ...options.timeouts },
      { env: options.env, log: options.log, lookup: options.lookup },
    );
    this.clock = new RequestClock(options.baseUrl.origin, options.offsetStore, options.nowMs);
  }

  /** The API base URL the calls go to. */
  get baseUrl(): URL {
    return this.#options.baseUrl;
  }

  async send<T>(call: ApiCall<T>): Promise<ApiResult<T>> {
    const body =
      call.body === undefined
        ? undefined
        : Buffer.from(typeof call.body === 'string' ? call.body : JSON.stringify(call.body), 'utf8');
    const query = encodeQuery(call.query ?? {});
    const label = `${call.method} ${call.path}`;
    let clockChecked = false;
    /** The hold this call set itself (and has already waited out). */
    let ownHold = 0;
    const retrier = new Retrier(label, {
      policy: this.#policy,
      onRetry: this.#options.onRetry,
      random: this.#options.random,
      // A pause between attempts ends at once on abort, like the attempts themselves.
      sleepMs: (ms) => this.#abortable((this.#options.sleepMs ?? sleep)(ms)),
      beforeWait: (delayMs, status) => {
        if (status !== 429) return;
        // A 429 holds back every other call on this transport too: concurrent callers (a batch's
        // workers) pause together once, instead of each meeting its own 429.
        this.#holdUntilMs = Math.max(this.#holdUntilMs, this.#nowMs() + delayMs);
        ownHold = this.#holdUntilMs;
      },
    });
    let uncertain = false;
    const marked = <E extends CliError>(error: E): E => {
      error.outcomeUncertain = uncertain;
      return error;
    };
    for (;;) {
      this.#throwIfAborted();
      const held = this.#holdUntilMs - this.#nowMs();
      if (held > 0 && this.#holdUntilMs !== ownHold) await this.#abortable((this.#options.sleepMs ?? sleep)(held));
      const outcome = await this.#abortable(this.#attempt(call, query, body)).catch((error: unknown) => {
        if (error instanceof HttpFailure) return error;
        throw error;
      });
      if (outcome instanceof HttpFailure) {
        uncertain ||= !outcome.neverSent;
        if (await retrier.afterFailure(outcome)) continue;
        const attempts = retrier.attempts;
        throw marked(
          new NetworkError(
            `${label} to ${this.#options.baseUrl.origin}: ${outcome.message} (${attempts} attempt${attempts > 1 ? 's' : ''})`,
            {
              cause: outcome,
            },
          ),
        );
      }
      const { status } = outcome;
      if (status >= 500) uncertain = true;
      if (status >= 200 && status < 300) {
        try {
          return { status, data: decodeSuccess(outcome, call.check, label) };
        } catch (error) {
          // The server accepted the request; only its answer is unreadable.
          uncertain = true;
          throw error instanceof CliError ? marked(error) : error;
        }
      }
      if (status === 401 && call.auth && !clockChecked) {
        clockChecked = true;
        if (await this.#clockWasWrong()) continue;
      }
      // An HTTP-date is on the server's clock: compare it with ours corrected by the known offset.
      const retryAfterMs = parseRetryAfter(
        retryAfterHeader(outcome),
        this.clock.localMs() + this.clock.offsetSeconds * 1000,
      );
      if (await retrier.afterStatus(status, retryAfterMs)) continue;
      const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
      const tooLong =
        isRetryableStatus(status) && retryAfterSeconds !== undefined && retryAfterMs! > this.#policy.maxDelayMs
          ? `the server asks to wait ${describeWait(retryAfterSeconds)}, longer than the ${describeWait(this.#policy.maxDelayMs / 1000)} energy waits: try again later`
          : undefined;
      throw marked(decodeFailure(outcome, label, retryAfterSeconds, tooLong));
    }
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  async #attempt(call: ApiCall<unknown>, query: string, body: Buffer | undefined): Promise<HttpResponse> {
    const path = this.#basePath + call.path;
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (call.auth) {
      const credentials = this.#options.credentials;
      if (credentials === undefined) {
        throw new AuthError('no API credentials', {
          hint: 'set them with `energy config set api-key` and `energy config set api-secret`, or ENERGY_API_KEY and ENERGY_API_SECRET',
        });
      }
      Object.assign(
        headers,
        // The spec's path (/v1/…), not the base URL's prefix: what the service sees behind a prefix-stripping proxy.
        signRequest({
          method: call.method,
          path: call.path,
          query,
          body,
          timestamp: this.clock.timestamp(),
          ...credentials,
        }),
      );
    }
    return loggedExchange(
      this.#http,
      { method: call.method, pathAndQuery: path + query, headers, body },
      {
        origin: this.#options.baseUrl.origin,
        log: this.#options.log,
        redactHeader: (name, value) => (name === 'authorization' ? redactAuthorization(value) : value),
        nowMs: () => this.clock.localMs(),
      },
    );
  }

  /** Reads the server clock after a 401; true when ours was off and has been corrected. */
  async #clockWasWrong(): Promise<boolean> {
    const sentAt = this.clock.localMs();
    let serverTime: number;
    try {
      const response = await this.#attempt(
        { method: 'GET', path: '/v1/time', auth: false, check: timeResponse },
        '',
        undefined,
      );
      if (response.status !== 200) return false;
      serverTime = decodeSuccess(response, timeResponse, 'GET /v1/time').unix_time;
    } catch {
      return false;
    }
    const corrected = this.clock.adopt(serverTime, sentAt, this.clock.localMs());
    if (corrected)
      this.#options.onRetry?.(`${describeOffset(this.clock.offsetSeconds)}: retrying once on the server's clock`);
    return corrected;
  }

  #nowMs(): number {
    return (this.#options.nowMs ?? Date.now)();
  }

  #throwIfAborted(): void {
    throwIfAborted(this.#options.signal);
  }

  /** Settles with `work`, or rejects with the abort reason as soon as the signal fires (closing the connection). */
  #abortable<T>(work: Promise<T>): Promise<T> {
    return abortable(work, this.#options.signal, () => void this.#http.close());
  }
}

/** A plain timer: node:timers/promises would be one more module to load on every command's path. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
