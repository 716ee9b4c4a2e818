/**
 * One HTTP exchange over undici: the only code that touches the network. It sends the path, headers and
 * body bytes exactly as given (a dispatcher's `request({origin, path})` does not re-encode the path the way
 * `new URL()` would), and reads the whole response.
 */
import { Agent } from 'undici';

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path plus the encoded query, sent as is. */
  pathAndQuery: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface HttpTimeouts {
  /** Time allowed to open the TCP/TLS connection. */
  connectMs: number;
  /** Time allowed for the whole exchange, from sending to the last body byte. */
  requestMs: number;
}

/** A failure before a complete response arrived; `timedOut` tells a timeout from a refused or reset connection. */
export class HttpFailure extends Error {
  override name = 'HttpFailure';
  constructor(
    message: string,
    readonly code: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

export class HttpConnection {
  readonly #agent: Agent;
  readonly #origin: string;
  readonly #timeouts: HttpTimeouts;

  constructor(origin: string, timeouts: HttpTimeouts) {
    this.#origin = origin;
    this.#timeouts = timeouts;
    // Keep-alive lets `order list --all` and `--wait` reuse one connection across requests.
    this.#agent = new Agent({
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.requestMs,
      bodyTimeout: timeouts.requestMs,
      keepAliveTimeout: 10_000,
    });
  }

  async exchange(request: HttpRequest): Promise<HttpResponse> {
    const signal = AbortSignal.timeout(this.#timeouts.requestMs);
    try {
      const response = await this.#agent.request({
        origin: this.#origin,
        path: request.pathAndQuery,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal,
      });
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      throw toHttpFailure(error, signal.aborted, this.#timeouts);
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

function toHttpFailure(error: unknown, aborted: boolean, timeouts: HttpTimeouts): HttpFailure {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN';
  if (aborted || TIMEOUT_CODES.has(code)) {
    const limit = code === 'UND_ERR_CONNECT_TIMEOUT' ? timeouts.connectMs : timeouts.requestMs;
    return new HttpFailure(`timed out after ${limit} ms`, code === 'UNKNOWN' ? 'TIMEOUT' : code, true, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HttpFailure(describeNetworkCode(code) ?? message, code, false, { cause: error });
}

function describeNetworkCode(code: string): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the server';
    case 'UND_ERR_SOCKET':
      return 'the server closed the connection before answering';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return undefined;
  }
}
