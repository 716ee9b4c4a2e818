/** A node:http server on 127.0.0.1:0 whose answers a test scripts one request at a time. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (request: Seen, response: ServerResponse) => void;

export interface ScriptedServer {
  url: URL;
  seen: Seen[];
  /** Answers for the next requests, in order; the last one repeats. */
  script(...handlers: Handler[]): void;
  close(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  let handlers: Handler[] = [];
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      seen.push(request);
      const handler = handlers.length > 1 ? handlers.shift()! : handlers[0];
      if (handler === undefined) res.writeHead(500).end();
      else handler(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    seen,
    script: (...next) => {
      handlers = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
}

export function problemReply(status: number, code: string, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    const problem = { type: `about:blank`, title: code, status, detail: `${code} detail`, code };
    response.writeHead(status, { 'content-type': 'application/problem+json', ...headers }).end(JSON.stringify(problem));
  };
}
