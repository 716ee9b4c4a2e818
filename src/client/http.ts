/**
 * One HTTP exchange: the only code that touches the network. It sends the path, headers and body bytes
 * exactly as given (node:http does not re-encode the path the way `new URL()` would) and reads the whole
 * response. Built on node:http/https rather than undici: in `npm run bench` loading undici alone cost
 * ~80 ms of a ~60 ms budget per command, while node:http's first request costs ~14 ms. The proxy decision
 * (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) is made here too, so every client built on this class follows it.
 */
import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { CliError } from '../domain/errors.js';
import { formatDuration } from '../domain/duration.js';
import { proxyFor, redactProxyUrl } from './proxy-env.js';
import { HttpFailure, toHttpFailure } from './http-failure.js';

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
  /** The body exactly as received (`energy api` writes these bytes; everything else reads `text`). */
  bytes?: Buffer;
}

export interface HttpTimeouts {
  /** Time allowed to open the TCP/TLS connection. */
  connectMs: number;
  /** Time allowed for the whole exchange, from sending to the last body byte. */
  requestMs: number;
}

/** Five seconds to connect, thirty for the whole exchange: the API's and the TRON node's default. */
export const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 5_000, requestMs: 30_000 };

/** No API answer is anywhere near this; a larger one is a misbehaving server, not data to buffer. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

type HttpModule = typeof import('node:http');

/** Host name resolution, as node:net's `lookup`. */
export type LookupFunction = NonNullable<RequestOptions['lookup']>;

export interface HttpConnectionOptions {
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default process.env). */
  env?: NodeJS.ProcessEnv | undefined;
  /** Lines for --verbose; proxy credentials never appear in them. */
  log?: ((line: string) => void) | undefined;
  /** Host name resolution, as node:net's `lookup` (default: the system resolver); lets tests stay off DNS. */
  lookup?: LookupFunction | undefined;
}

export class HttpConnection {
  readonly #url: URL;
  readonly #timeouts: HttpTimeouts;
  readonly #options: HttpConnectionOptions;
  #module: HttpModule | undefined;
  #agent: Agent | undefined;

  constructor(origin: string, timeouts: HttpTimeouts, options: HttpConnectionOptions = {}) {
    this.#url = new URL(origin);
    this.#timeouts = timeouts;
    this.#options = options;
  }

  async exchange(request: HttpRequest): Promise<HttpResponse> {
    // https (and TLS) is loaded only for https origins.
    this.#module ??= (
      this.#url.protocol === 'https:' ? await import('node:https') : await import('node:http')
    ) as HttpModule;
    this.#agent ??= await this.#makeAgent(this.#module);
    const options: RequestOptions = {
      host: this.#url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: this.#url.port || undefined,
      method: request.method,
      path: request.pathAndQuery,
      headers: { ...request.headers, ...(request.body && { 'content-length': String(request.body.length) }) },
      agent: this.#agent,
      ...(this.#options.lookup && { lookup: this.#options.lookup }),
    };
    return new Promise<HttpResponse>((resolve, reject) => {
      const req = this.#module!.request(options);
      const fail = (failure: HttpFailure | CliError) => {
        clearTimeout(wholeTimer);
        req.destroy();
        reject(failure);
      };
      const wholeTimer = setTimeout(
        () => fail(new HttpFailure(`timed out after ${formatDuration(this.#timeouts.requestMs)}`, 'TIMEOUT')),
        this.#timeouts.requestMs,
      );
      watchConnect(req, this.#timeouts.connectMs, fail);
      // The proxy tunnel fails with its own HttpFailure, or a NetworkError for a 407: keep them as they are.
      req.on('error', (error) =>
        fail(error instanceof HttpFailure || error instanceof CliError ? error : toHttpFailure(error)),
      );
      req.on('response', (response) => {
        readBody(response).then(
          (bytes) => {
            clearTimeout(wholeTimer);
            // Decoded once at the end, so that a multi-byte character split across chunks stays whole.
            const text = bytes.toString('utf8');
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text, bytes });
          },
          (error: unknown) => fail(error instanceof HttpFailure ? error : toHttpFailure(error)),
        );
      });
      req.end(request.body);
    });
  }

  async close(): Promise<void> {
    this.#agent?.destroy();
  }

  /** Keep-alive lets `order list --all` and `--wait` reuse one connection, direct or through a proxy tunnel. */
  async #makeAgent(module: HttpModule): Promise<Agent> {
    const proxy = proxyFor(this.#url, this.#options.env ?? process.env);
    if (proxy === undefined) return new module.Agent({ keepAlive: true });
    this.#options.log?.(`* through the proxy ${redactProxyUrl(proxy.url)} (${proxy.variable})`);
    const { tunnelAgent } = await import('./proxy-tunnel.js');
    return tunnelAgent(this.#url, proxy, this.#timeouts.connectMs);
  }
}

function watchConnect(req: ClientRequest, connectMs: number, fail: (failure: HttpFailure) => void): void {
  req.on('socket', (socket) => {
    // A reused keep-alive socket is already connected.
    if (!socket.connecting) return;
    const timer = setTimeout(
      () => fail(new HttpFailure(`connection timed out after ${formatDuration(connectMs)}`, 'CONNECT_TIMEOUT')),
      connectMs,
    );
    socket.once('connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  });
}

function readBody(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        // Settled before the destroy, whose 'aborted' would otherwise be read as the server hanging up.
        reject(new HttpFailure(`the response is too large: over ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`, 'TOO_LARGE'));
        chunks.length = 0;
        response.destroy();
      } else chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('aborted', () =>
      reject(new HttpFailure('the server closed the connection mid-response', 'ECONNRESET')),
    );
    response.on('error', reject);
  });
}
