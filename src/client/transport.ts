/**
 * Sends one API operation: builds the URL, serialises the body once, signs each attempt afresh over the
 * same bytes, retries what may be retried, corrects the clock once on 401, and decodes the answer.
 *
 * Calls in flight at once share one clock: a 401 on a request signed with an offset that another call has
 * since corrected is signed again at once on the new one, and concurrent 401s wait for one reading of the
 * server's clock, instead of the later ones finding it "already corrected" and failing.
 */
import { MissingCredentialsError } from '../domain/errors.js';
import { bodyHash, canonicalPayload, encodeQuery, signRequest } from '../signing/index.js';
import { attemptSettings, runAttempts, type AttemptSettings } from './attempts.js';
import { parseBaseUrl, withoutTrailingSlashes } from './base-url.js';
import { MAX_READINGS, RequestClock, describeOffset, implausibleServerTime, type OffsetStore } from './clock.js';
import { decodeFailure, decodeSuccess, retryAfterHeader } from './decode.js';
import { DEFAULT_TIMEOUTS, HttpConnection, type HttpResponse, type HttpTimeouts, type LookupFunction } from './http.js';
import { redactAuthorization } from './redact.js';
import { loggedExchange } from './logged-exchange.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
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
  /** What to throw for a signed call without credentials (saying which one is missing, and where to set it). */
  missingCredentials?: (() => Error) | undefined;
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
  /** This host's wall clock (tests shift it). */
  nowMs?: () => number;
  /** The monotonic clock the server clock runs on between readings (default domain/monotonic.ts). */
  monoMs?: () => number;
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
  /** The body as received. */
  text: string;
}

/** A request written out by hand (`energy api`): the encoded query with its `?` (or ''), the exact body. */
export interface RawCall {
  method: 'GET' | 'POST';
  path: string;
  query: string;
  body: Buffer | undefined;
}

/** A signed request as it would leave, its signature masked (`order create --dry-run`). */
export interface RequestPreview {
  method: string;
  path: string;
  body: string;
  canonical: string;
  headers: Record<string, string>;
}

type CallLine = Pick<ApiCall<unknown>, 'method' | 'path' | 'auth'>;

export { DEFAULT_TIMEOUTS };

export class Transport {
  readonly clock: RequestClock;
  readonly #options: TransportOptions;
  readonly #policy: RetryPolicy;
  readonly #http: HttpConnection;
  readonly #basePath: string;
  readonly #attempts: AttemptSettings;
  /**
   * The check of the server clock under way (after a 401, or a run's own `checkClock`), shared by every call
   * that meets a 401 meanwhile: they wait for it rather than read the clock again.
   */
  #clockCheck: Promise<void> | undefined;

  constructor(options: TransportOptions) {
    // The library keeps the CLI's rule: no secret-signed request in clear text off this machine.
    parseBaseUrl(options.baseUrl.href);
    this.#options = options;
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy };
    this.#basePath = withoutTrailingSlashes(options.baseUrl.pathname);
    this.#http = new HttpConnection(
      options.baseUrl.origin,
      { ...DEFAULT_TIMEOUTS, ...options.timeouts },
      { env: options.env, log: options.log, lookup: options.lookup },
    );
    this.clock = new RequestClock(
      options.baseUrl.origin,
      options.offsetStore,
      options.nowMs,
      // A test's own wall clock does not step: it serves as the monotonic one too.
      options.monoMs ?? options.nowMs,
    );
    this.#attempts = attemptSettings(this.#policy, this.#http, options);
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
    const label = `${call.method} ${call.path}`;
    return this.#run(call, encodeQuery(call.query ?? {}), body, (response, outcomeUncertain) => ({
      status: response.status,
      data: decodeSuccess(response, call.check, label, outcomeUncertain),
      text: response.text,
    }));
  }

  /**
   * One signed request as the user wrote it (`energy api`): the same signing, retries and clock check as
   * `send`, but a 2xx answer comes back as received, unchecked. Other statuses fail as everywhere.
   */
  async sendRaw(call: RawCall): Promise<HttpResponse> {
    return this.#run({ ...call, auth: true }, call.query, call.body, (response) => response);
  }

  /**
   * What `send` would put on the wire for a signed call, signed now on the corrected clock, with the
   * signature masked (`order create --dry-run`).
   */
  preview(call: { method: 'GET' | 'POST'; path: string; body: string }): RequestPreview {
    const path = this.#basePath + call.path;
    const body = Buffer.from(call.body, 'utf8');
    const timestamp = this.clock.timestamp();
    // Signed over the spec's path, like every request (see #headers); `path` is what goes on the wire.
    const canonical = canonicalPayload({
      timestamp,
      method: call.method,
      path: call.path,
      query: '',
      bodyHash: bodyHash(body),
    });
    const headers = this.#headers({ ...call, auth: true }, '', body, timestamp);
    if (headers.authorization !== undefined) headers.authorization = redactAuthorization(headers.authorization);
    return { method: call.method, path, body: call.body, canonical, headers };
  }

  #run<R>(
    call: CallLine,
    query: string,
    body: Buffer | undefined,
    decode: (response: HttpResponse, outcomeUncertain: boolean) => R,
  ): Promise<R> {
    const label = `${call.method} ${call.path}`;
    let clockChecked = false;
    /** The clock's epoch the latest attempt was signed at. */
    let signedWith = this.clock.epoch;
    return runAttempts(this.#attempts, {
      label,
      // The base URL as given, its path prefix included: where the request went is that plus the API path.
      failureLabel: `${label} to ${this.#options.baseUrl.origin}${this.#basePath}`,
      idempotent: call.method === 'GET',
      exchange: () => {
        signedWith = this.clock.epoch;
        return this.#attempt(call, query, body);
      },
      decode,
      // Once per call, so a 401 never loops: sign again when the clock was corrected since this attempt was
      // signed (by another call, or by reading the server's clock now).
      againAtOnce: async (response) => {
        if (response.status !== 401 || !call.auth || clockChecked) return false;
        clockChecked = true;
        if (!this.clock.movedSince(signedWith)) await this.#checkClock();
        return this.clock.movedSince(signedWith);
      },
      // An HTTP-date is on the server's clock: compare it with ours corrected by the known offset.
      serverNowMs: () => this.clock.serverNowMs(),
      retryAfter: retryAfterHeader,
      failure: (response, retryAfterMs, tooLong, outcomeUncertain) =>
        decodeFailure(
          response,
          label,
          retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
          tooLong,
          outcomeUncertain,
        ),
    });
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  async #attempt(call: CallLine, query: string, body: Buffer | undefined): Promise<HttpResponse> {
    const path = this.#basePath + call.path;
    const headers = this.#headers(call, query, body, call.auth ? this.clock.timestamp() : 0);
    return loggedExchange(
      this.#http,
      { method: call.method, pathAndQuery: path + query, headers, body },
      {
        origin: this.#options.baseUrl.origin,
        log: this.#options.log,
        redactHeader: (name, value) => (name === 'authorization' ? redactAuthorization(value) : value),
        nowMs: () => this.clock.monoMs(),
      },
    );
  }

  #headers(call: CallLine, query: string, body: Buffer | undefined, timestamp: number): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (call.auth) {
      const credentials = this.#options.credentials;
      if (credentials === undefined) {
        throw this.#options.missingCredentials?.() ?? new MissingCredentialsError();
      }
      Object.assign(
        headers,
        // The spec's path (/v1/…), not the base URL's prefix: what the service sees behind a prefix-stripping proxy.
        signRequest({ method: call.method, path: call.path, query, body, timestamp, ...credentials }),
      );
    }
    return headers;
  }

  /** Runs `check` (a reading of the server clock) as the check under way: a 401 meanwhile waits for it. */
  sharingClockCheck<T>(check: () => Promise<T>): Promise<T> {
    const running = check();
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    this.#clockCheck ??= settled.finally(() => (this.#clockCheck = undefined));
    return running;
  }

  /** Reads the server clock after a 401, once for every call that meets one meanwhile; corrects ours if off. */
  #checkClock(): Promise<void> {
    this.#clockCheck ??= this.#readServerClock().finally(() => (this.#clockCheck = undefined));
    return this.#clockCheck;
  }

  /** Readings until the clock takes one (see RequestClock.offer); a server that never agrees leaves the 401. */
  async #readServerClock(): Promise<void> {
    for (let reading = 0; reading < MAX_READINGS; reading += 1) {
      const sentAt = this.clock.monoMs();
      let serverTime: number;
      try {
        const response = await this.#attempt({ method: 'GET', path: '/v1/time', auth: false }, '', undefined);
        if (response.status !== 200) return;
        serverTime = decodeSuccess(response, timeResponse, 'GET /v1/time').unix_time;
        // A time that cannot be one is never adopted: the 401 stands, as when the clock cannot be read.
        if (implausibleServerTime(serverTime, this.clock.localMs()) !== undefined) return;
      } catch {
        return;
      }
      const offered = this.clock.offer(serverTime, sentAt, this.clock.monoMs());
      if (!offered.taken) continue;
      if (offered.corrected)
        this.#options.onRetry?.(`${describeOffset(this.clock.offsetSeconds)}: retrying once on the server's clock`);
      return;
    }
  }
}
