/**
 * The status server on 127.0.0.1: /metrics as Prometheus reads it (promtool check metrics, where it is
 * installed: CI installs Debian's prometheus package), the probes 200 or 503, a port in use refused (exit 2).
 */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/domain/errors.js';
import { newItem } from '../../../src/ensure/item.js';
import { Health } from '../../../src/service/health.js';
import { parseListenAddress } from '../../../src/service/listen-address.js';
import { ServiceMetrics } from '../../../src/service/service-metrics.js';
import { startStatusServer, type StatusServer } from '../../../src/service/status-server.js';
import { describeWhere, hasCommand } from '../../helpers/machine-needs.js';
import { sampleOrder } from '../../helpers/sample-order.js';

function get(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] ?? '', body }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** promtool's lint of an exposition: its complaints, or '' when it has none. */
function promtoolCheck(text: string): Promise<string> {
  return new Promise((resolve) => {
    const child = execFile('promtool', ['check', 'metrics'], (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`.trim()),
    );
    child.stdin!.end(text);
  });
}

const servers: StatusServer[] = [];
afterAll(async () => Promise.all(servers.map((server) => server.close())));

function routesOf(health: Health, now: number) {
  return { live: () => health.live(now), ready: () => health.report(now) };
}

function metricsAfterACycle(): ServiceMetrics {
  const metrics = new ServiceMetrics();
  const order = sampleOrder({ address: 'TA', total_trx: '3.700000' });
  metrics.cycleEnded(
    [
      { ...newItem('TA', 65_000, 0), reason: 'bought', bought: order, to_buy: 65_000, in_flight: 0 },
      { ...newItem('TB', 65_000, 70_000), reason: 'enough' },
    ],
    false,
    Date.UTC(2026, 10, 25, 10),
  );
  // Delivered at the next cycle's start: its price is spent.
  metrics.orderSettled(true, order.total_trx);
  metrics.balance('96.300000', '50.000000');
  return metrics;
}

describe('the status server', () => {
  it('serves the metrics as text/plain 0.0.4 with one series per address and the order counted', async () => {
    const metrics = metricsAfterACycle();
    const server = await startStatusServer(parseListenAddress('0')!, {
      metrics: () => metrics.render(),
      live: () => new Health(1000, Date.now()).live(Date.now()),
      ready: () => new Health(1000, Date.now()).report(Date.now()),
    });
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const scrape = await get(`${server.url}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(scrape.body).toContain('energy_ensure_orders_total{result="placed"} 1\n');
    expect(scrape.body).toContain('energy_ensure_spent_trx_total 3.700000\n');
    expect(scrape.body).toContain('energy_address_available_energy{address="TA"} 0\n');
    expect(scrape.body).toContain('energy_address_available_energy{address="TB"} 70000\n');
    expect(scrape.body).toContain('energy_balance_available_trx 96.300000\n');
    expect(scrape.body).toContain('energy_ensure_last_success_timestamp_seconds 1795600800.000\n');
  });

  it('/livez and /readyz (and /healthz, the same as /readyz) are 200 while so, 503 with the reason when not; other paths 404', async () => {
    const health = new Health(1000, 0);
    let now = 500;
    const server = await startStatusServer(parseListenAddress('127.0.0.1:0')!, {
      metrics: () => '',
      live: () => health.live(now),
      ready: () => health.report(now),
    });
    servers.push(server);
    for (const path of ['/livez', '/readyz', '/healthz']) expect((await get(`${server.url}${path}`)).status).toBe(200);
    for (const at of [1000, 2000, 3000]) health.cycleEnded('failed', at);
    now = 3000;
    // Failing, but cycles keep ending: not ready, and alive (a restart would cure nothing).
    for (const path of ['/readyz', '/healthz']) {
      const down = await get(`${server.url}${path}`);
      expect(down.status).toBe(503);
      expect(down.type).toBe('application/json');
      expect(JSON.parse(down.body)).toMatchObject({ status: 'unhealthy', reason: 'the last 3 cycles failed' });
    }
    const live = await get(`${server.url}/livez`);
    expect(live.status).toBe(200);
    expect(JSON.parse(live.body)).toEqual({
      status: 'ok',
      healthy: true,
      reason: 'ok',
      last_cycle_at: '1970-01-01T00:00:03.000Z',
    });
    // No cycle ends any more: not alive either.
    now = 3000 + 3 * 1000 + 60_001;
    const stuck = await get(`${server.url}/livez`);
    expect(stuck.status).toBe(503);
    expect(JSON.parse(stuck.body)).toMatchObject({ status: 'unhealthy', reason: 'no cycle has ended for 63 s' });
    expect((await get(`${server.url}/`)).status).toBe(404);
  });

  it('a port in use is a usage error (exit 2) naming it', async () => {
    const first = await startStatusServer(parseListenAddress('0')!, {
      metrics: () => '',
      ...routesOf(new Health(1, 0), 0),
    });
    servers.push(first);
    const port = new URL(first.url).port;
    await expect(
      startStatusServer(parseListenAddress(port)!, { metrics: () => '', ...routesOf(new Health(1, 0), 0) }),
    ).rejects.toMatchObject({ exitCode: ExitCode.usage, message: `--metrics 127.0.0.1:${port}: the port is in use` });
  });
});

describeWhere('promtool', hasCommand('promtool', ['--version']), "Prometheus' own lint", () => {
  it('promtool check metrics accepts the exposition', async () => {
    expect(await promtoolCheck(metricsAfterACycle().render())).toBe('');
  });
});

describe('parseListenAddress', () => {
  it.each([
    ['9464', { host: '127.0.0.1', port: 9464 }],
    ['0.0.0.0:9464', { host: '0.0.0.0', port: 9464 }],
    ['localhost:80', { host: 'localhost', port: 80 }],
    ['[::1]:9464', { host: '::1', port: 9464 }],
    ['[::]:9464', { host: '::', port: 9464 }],
    ['0', { host: '127.0.0.1', port: 0 }],
    ['0:9464', undefined],
    ['00:9464', undefined],
    ['70000', undefined],
    [':9464', undefined],
    ['http://x:1', undefined],
  ])('%s', (text, expected) => {
    expect(parseListenAddress(text)).toEqual(expected);
  });
});

describe('a status server on every interface', () => {
  it('gives the loopback URL and says it listens on every interface', async () => {
    const server = await startStatusServer(parseListenAddress('0.0.0.0:0')!, {
      metrics: () => '',
      ...routesOf(new Health(1, 0), 0),
    });
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.everyInterface).toBe(true);
    expect((await get(`${server.url}/metrics`)).status).toBe(200);
  });

  it.each(['0.0', '0x0', '0.0.0', '000.000.000.000', '[::ffff:0.0.0.0]'])(
    '%s binds 0.0.0.0 like 0.0.0.0 does: every interface, said so, a loopback URL that answers',
    async (host) => {
      const server = await startStatusServer(parseListenAddress(`${host}:0`)!, {
        metrics: () => '',
        ...routesOf(new Health(1, 0), 0),
      });
      servers.push(server);
      expect(server.everyInterface).toBe(true);
      expect(server.bound).toMatch(/^(::ffff:)?0\.0\.0\.0$/);
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await get(`${server.url}/metrics`)).status).toBe(200);
    },
  );

  it('[::] is every interface, its URL ::1', async () => {
    const server = await startStatusServer(parseListenAddress('[::]:0')!, {
      metrics: () => '',
      ...routesOf(new Health(1, 0), 0),
    });
    servers.push(server);
    expect(server.everyInterface).toBe(true);
    expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
  });

  it('a named loopback address is not every interface', async () => {
    const server = await startStatusServer(parseListenAddress('127.0.0.1:0')!, {
      metrics: () => '',
      ...routesOf(new Health(1, 0), 0),
    });
    servers.push(server);
    expect(server.everyInterface).toBe(false);
  });
});
