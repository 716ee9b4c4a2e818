/**
 * The service's status server (`--metrics`): `GET /metrics` in Prometheus' text format, and two probes as
 * JSON, 200 or 503 with the reason: `/livez` (cycles keep ending: what a restart asks) and `/readyz` (doing
 * its work), `/healthz` kept as `/readyz`. Read-only, no credentials in it, nothing else served. Started
 * before the first cycle, so that a port in use is an error (exit 2) at once, not a surprise at the first
 * scrape.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../domain/errors.js';
import type { HealthReport, LiveReport } from './health.js';
import { everyInterface, type ListenAddress } from './listen-address.js';

export interface StatusRoutes {
  metrics: () => string;
  live: () => LiveReport;
  ready: () => HealthReport;
}

export interface StatusServer {
  /**
   * e.g. `http://127.0.0.1:9464` (the port the system gave, when 0 was asked for); on every interface
   * (0.0.0.0, ::) the loopback URL, which works on this machine.
   */
  readonly url: string;
  /** Listening on every interface (0.0.0.0, ::): reachable from other machines, unless a firewall stops them. */
  readonly everyInterface: boolean;
  /** The address the socket got, as the system spells it (`0.0.0.0` for `--metrics 0x0:9464`). */
  readonly bound: string;
  close(): Promise<void>;
}

export async function startStatusServer(address: ListenAddress, routes: StatusRoutes): Promise<StatusServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (path === '/metrics') {
      response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(routes.metrics());
    } else if (path === '/livez') {
      probe(response, routes.live());
    } else if (path === '/readyz' || path === '/healthz') {
      probe(response, routes.ready());
    } else {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('not found: /metrics, /livez, /readyz and /healthz are served\n');
    }
  });
  await listen(server, address);
  const { port, address: bound } = server.address() as AddressInfo;
  const wildcard = everyInterface(bound);
  // On every interface, the loopback URL of the same family (an IPv4-mapped wildcard takes IPv4 only).
  const shown = wildcard ? (bound === '::' ? '::1' : '127.0.0.1') : address.host;
  const host = shown.includes(':') ? `[${shown}]` : shown;
  return {
    url: `http://${host}:${port}`,
    everyInterface: wildcard,
    bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function probe(response: ServerResponse, report: LiveReport | HealthReport): void {
  response
    .writeHead(report.healthy ? 200 : 503, { 'content-type': 'application/json' })
    .end(`${JSON.stringify({ status: report.healthy ? 'ok' : 'unhealthy', ...report })}\n`);
}

function listen(server: Server, { host, port }: ListenAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `--metrics ${host}:${port}`;
      const why =
        error.code === 'EADDRINUSE'
          ? 'the port is in use'
          : error.code === 'EACCES'
            ? 'this user may not listen there'
            : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
              ? 'no interface of this machine has that address'
              : (error.code ?? error.message);
      reject(new UsageError(`${where}: ${why}`, { hint: 'choose another port, e.g. --metrics 9464' }));
    });
    server.listen(port, host, () => resolve());
  });
}
