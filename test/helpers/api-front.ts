/**
 * A node:http server in front of the sandbox that passes every request on unchanged (signatures hold: same
 * method, path, headers and body) and may change what comes back: the unix_time of the n-th GET /v1/time
 * (a server clock that answers wrong), and each order the API shows (created, read, listed): for the
 * clock and refund cases of issue 44. Orders and TRX are still counted at the sandbox behind it.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Order } from '../../src/client/types.js';

export interface FrontOptions {
  /** The unix_time answered for the n-th GET /v1/time (1 first), given the sandbox's. */
  time?: (n: number, unixTime: number) => number;
  /** Called as each request arrives, before it is passed on (e.g. to step the CLI's host clock then). */
  onRequest?: (method: string, path: string) => void;
  /** What each order the API answers with looks like instead. */
  order?: (order: Order) => Order;
  /** Which orders the list shows (before `order` rewrites them); all by default. */
  listed?: (order: Order) => boolean;
}

export interface ApiFront {
  url: string;
  /** GET /v1/time requests answered so far. */
  readonly timeReadings: number;
  close(): Promise<void>;
}

function body(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function rewrite(path: string, text: string, options: FrontOptions, n: number): string {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (path === '/v1/time' && options.time !== undefined) {
    parsed.unix_time = options.time(n, parsed.unix_time as number);
  } else if (path.startsWith('/v1/energy/orders')) {
    if (Array.isArray(parsed.items) && options.listed !== undefined)
      parsed.items = (parsed.items as Order[]).filter(options.listed);
    if (options.order === undefined) return JSON.stringify(parsed);
    if (Array.isArray(parsed.items)) parsed.items = (parsed.items as Order[]).map(options.order);
    else if (typeof parsed.client_request_id === 'string') return JSON.stringify(options.order(parsed as never));
  }
  return JSON.stringify(parsed);
}

export async function startApiFront(target: string, options: FrontOptions): Promise<ApiFront> {
  const to = new URL(target);
  let timeReadings = 0;
  const server = createServer((req, res) => {
    void body(req).then((sent) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const n = path === '/v1/time' ? ++timeReadings : 0;
      options.onRequest?.(req.method ?? '', path);
      const headers = { ...req.headers, host: to.host };
      const upstream = request(
        { host: to.hostname, port: to.port, path: req.url, method: req.method, headers, agent: false },
        (answer) => {
          void body(answer).then((received) => {
            let text = received.toString('utf8');
            const status = answer.statusCode ?? 502;
            if (status >= 200 && status < 300 && text.startsWith('{')) text = rewrite(path, text, options, n);
            const out = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
            delete out['transfer-encoding'];
            res.writeHead(status, out).end(text);
          });
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(sent);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get timeReadings() {
      return timeReadings;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
