/**
 * A service operators can watch (issue 26), spawned for real against the sandbox: --metrics serves what
 * promtool accepts, with the order counted and one series per address; /readyz (and /healthz) turn 503 when
 * the API fails every cycle while /livez stays 200, and SIGTERM still ends it with 0; --on-event runs a hook per event; a bare port is
 * loopback only; a port in use is exit 2 before any cycle.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freshAddress, httpGet, metricsUrl, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { hasCommand } from '../helpers/machine-needs.js';
import { worldForSuite } from '../helpers/suite-world.js';

const PROMTOOL = hasCommand('promtool', ['--version']) || process.env.ENERGY_TESTS_REQUIRE_ALL === '1';
const RECORD_EVENT = fileURLToPath(new URL('../fixtures/record-event.cjs', import.meta.url));

function promtoolCheck(text: string): Promise<string> {
  return new Promise((resolve) => {
    const child = execFile('promtool', ['check', 'metrics'], (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`.trim()),
    );
    child.stdin!.end(text);
  });
}

/**
 * The Dockerfile's HEALTHCHECK command, run here against the service at `url` (its port in place of the
 * image's 9464): its exit status, as Docker reads it.
 */
function dockerHealthcheck(url: string): Promise<number> {
  const dockerfile = readFileSync(fileURLToPath(new URL('../../Dockerfile', import.meta.url)), 'utf8');
  const cmd = /^\s*CMD (\[.*\])$/m.exec(dockerfile.slice(dockerfile.indexOf('HEALTHCHECK')));
  const [program, ...args] = JSON.parse(cmd![1]!) as string[];
  const port = new URL(url).port;
  return new Promise((resolve) => {
    execFile(
      program!,
      args.map((arg) => arg.replace('127.0.0.1:9464', `127.0.0.1:${port}`)),
      (error) => resolve(error === null ? 0 : typeof error.code === 'number' ? error.code : -1),
    );
  });
}

/** Whether something accepts a TCP connection at host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('ensure --every with --metrics, --min-balance and --on-event', () => {
  // Orders deliver after 300 ms; a balance of 10 TRX falls below --min-balance 8 after two orders.
  const world = worldForSuite({ deliverAfterMs: 300, rateLimit: false, startingBalance: '10.000000' });
  const addresses = [freshAddress(26_001), freshAddress(26_002)];

  async function watched(extra: string[] = []) {
    const events = join(mkdtempSync(join(tmpdir(), 'energy-events-')), 'events.ndjson');
    const running = world.spawn(
      [
        '--retries',
        '0',
        'ensure',
        ...rentalArgs(addresses, '--yes'),
        '--every',
        '500ms',
        '--metrics',
        '0',
        '--min-balance',
        '8',
        '--on-event',
        `${process.execPath} ${RECORD_EVENT} ${events}`,
        '--json',
        ...extra,
      ],
      { env: { ENERGY_TRON_NODE: world.sandbox.url } },
    );
    const url = await metricsUrl(running, 30_000);
    return { running, url, events };
  }

  it('serves metrics with the orders counted and a series per address; /readyz turns 503 when every cycle fails while /livez (the HEALTHCHECK) stays 200; SIGTERM ends it with 0; the hook hears the events', async () => {
    const { running, url, events } = await watched();
    onTestFinished(() => {
      world.sandbox.clearFaults();
      running.child.kill('SIGKILL');
    });
    const scrape = await until(
      'an order is counted',
      async () => {
        const { body } = await httpGet(`${url}/metrics`);
        return /energy_ensure_orders_total\{result="placed"\} [1-9]/.test(body) ? body : undefined;
      },
      30_000,
    );
    for (const address of addresses) {
      expect(scrape).toMatch(new RegExp(`energy_address_available_energy\\{address="${address}"\\} \\d+\\n`));
      expect(scrape).toMatch(new RegExp(`energy_address_target_energy\\{address="${address}"\\} 65000\\n`));
    }
    expect(scrape).toMatch(/energy_balance_available_trx \d+\.\d{6}\n/);
    // Where promtool is missing this check is left out, except in CI, which installs it (and requires it).
    if (PROMTOOL) expect(await promtoolCheck(scrape)).toBe('');
    expect((await httpGet(`${url}/healthz`)).status).toBe(200);
    expect(await dockerHealthcheck(url)).toBe(0);

    // From now on every request fails (the API's balance read, the node's): three cycles in a row, and the
    // health check says so.
    world.sandbox.inject({ kind: 'status', status: 503, times: 100_000 });
    const down = await until(
      'healthz says 503',
      async () => {
        const answer = await httpGet(`${url}/healthz`);
        return answer.status === 503 ? answer : undefined;
      },
      30_000,
    );
    expect(JSON.parse(down.body)).toMatchObject({ status: 'unhealthy', reason: 'the last 3 cycles failed' });
    expect((await httpGet(`${url}/readyz`)).status).toBe(503);
    // Failing, but alive: its cycles keep ending, so the HEALTHCHECK (/livez) leaves it running (a restart
    // would cure nothing; a stuck process is what it restarts: health.test.ts, deploy-files.test.ts).
    expect((await httpGet(`${url}/livez`)).status).toBe(200);
    expect(await dockerHealthcheck(url)).toBe(0);
    world.sandbox.clearFaults();

    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);

    const raised = readFileSync(events, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const placed = raised.filter((event) => event.event === 'order_placed');
    const ids = new Set(world.sandbox.orders().map((order) => order.id));
    expect(placed.length).toBeGreaterThanOrEqual(1);
    for (const event of placed) expect(ids.has(event.order.id)).toBe(true);
    expect(raised).toContainEqual(expect.objectContaining({ event: 'low_balance', min_balance_trx: '8.000000' }));
    expect(raised).toContainEqual(expect.objectContaining({ event: 'cycle_failed' }));
    // Every stderr line stayed JSON, the hooks' included.
    for (const line of result.stderr.trim().split('\n')) expect(() => JSON.parse(line), line).not.toThrow();
  }, 90_000);

  it('a bare --metrics port listens on loopback only (127.0.0.1, not 127.0.0.2)', async () => {
    const { running, url } = await watched();
    onTestFinished(() => void running.child.kill('SIGKILL'));
    const port = Number(new URL(url).port);
    expect(await accepts('127.0.0.1', port)).toBe(true);
    expect(await accepts('127.0.0.2', port)).toBe(false);
    running.child.kill('SIGTERM');
    expect((await running.result).code).toBe(0);
  }, 60_000);

  it('a --metrics port in use is exit 2 before any cycle', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    const before = world.sandbox.requestCount();
    const result = await world.run(
      ['ensure', ...rentalArgs(addresses[0]!, '--yes', '--every', '1m', '--metrics', String(port))],
      { env: { ENERGY_TRON_NODE: world.sandbox.url } },
    );
    busy.close();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--metrics 127.0.0.1:${port}: the port is in use`);
    expect(world.sandbox.requestCount()).toBe(before);
  });
});
