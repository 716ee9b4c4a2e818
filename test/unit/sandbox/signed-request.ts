/** A tiny HTTP client for the sandbox tests: signs with src/signing unless told to send something else. */
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { signRequest } from '../../../src/signing/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';

export interface CallOptions {
  method?: string;
  path: string;
  /** Sent as is, with its '?'. */
  query?: string;
  body?: string | Buffer;
  /** Default 'application/json' when there is a body; null sends none. */
  contentType?: string | null;
  /** false: send no Authorization/X-Request-Timestamp headers. */
  sign?:
    | false
    | {
        apiKey?: string;
        apiSecret?: string;
        timestamp?: number;
        /** What the signature covers, when it should differ from what is sent. */
        query?: string;
        body?: string | Buffer;
      };
  headers?: Record<string, string>;
  agent?: Agent;
  timeoutMs?: number;
}

export interface CallResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: any;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export function call(sandbox: Sandbox, options: CallOptions): Promise<CallResult> {
  const method = options.method ?? 'GET';
  const query = options.query ?? '';
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined && options.contentType !== null)
    headers['content-type'] = options.contentType ?? 'application/json';
  if (options.sign !== false) {
    const sign = options.sign ?? {};
    Object.assign(
      headers,
      signRequest({
        method,
        path: options.path,
        query: sign.query ?? query,
        body: sign.body ?? options.body,
        timestamp: sign.timestamp ?? nowSeconds(),
        apiKey: sign.apiKey ?? sandbox.apiKey,
        apiSecret: sign.apiSecret ?? sandbox.apiSecret,
      }),
    );
  }
  const url = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: options.path + query,
        headers,
        agent: options.agent ?? false,
        timeout: options.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** POST a JSON value, serialised once. */
export function postJson(
  sandbox: Sandbox,
  path: string,
  value: unknown,
  extra: Partial<CallOptions> = {},
): Promise<CallResult> {
  return call(sandbox, { method: 'POST', path, body: JSON.stringify(value), ...extra });
}

/** Polls `read` until `done` holds for its result, or fails after `timeoutMs`. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
