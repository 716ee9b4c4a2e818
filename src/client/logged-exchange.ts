/**
 * One HTTP exchange with its `--verbose` lines: the request line and headers (credentials redacted by the
 * caller's rule), then the status, time and size of the answer, or the failure. Shared by the API transport
 * and the TRON node client so that both print the same lines.
 */
import type { HttpConnection, HttpRequest, HttpResponse } from './http.js';
import { HttpFailure } from './http-failure.js';

export interface ExchangeLog {
  /** Origin as shown in the request line, e.g. https://api.example.com. */
  origin: string;
  log: ((line: string) => void) | undefined;
  /** The value to show for a header; credentials come back masked. */
  redactHeader: (name: string, value: string) => string;
  nowMs: () => number;
}

export async function loggedExchange(
  http: HttpConnection,
  request: HttpRequest,
  view: ExchangeLog,
): Promise<HttpResponse> {
  const { log } = view;
  if (log !== undefined) {
    log(`> ${request.method} ${view.origin}${request.pathAndQuery}`);
    for (const [name, value] of Object.entries(request.headers)) log(`> ${name}: ${view.redactHeader(name, value)}`);
    if (request.body !== undefined) log(`> (${request.body.length} bytes of JSON)`);
  }
  const startedAt = view.nowMs();
  const path = request.pathAndQuery.split('?')[0];
  try {
    const response = await http.exchange(request);
    log?.(
      `< ${response.status} ${request.method} ${path} (${view.nowMs() - startedAt} ms, ${Buffer.byteLength(response.text)} bytes)`,
    );
    return response;
  } catch (error) {
    if (error instanceof HttpFailure) log?.(`< ${error.message} (${error.code})`);
    throw error;
  }
}
