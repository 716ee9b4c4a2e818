import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpConnection } from '../../src/client/http.js';
import { closedPort, expectNoStackTrace } from '../helpers/e2e.js';
import { startProxiedWorld, type ProxiedWorld } from '../helpers/proxied-world.js';
import {
  startConnectProxy,
  TEST_HOST,
  type Listening,
  type TestCertificates,
  type TestProxy,
} from '../helpers/proxy.js';
import { json, type World } from '../helpers/world.js';

const PASSWORD = 'pr0xy-Secret-pw';
const RESOLVE_TEST_HOSTS = fileURLToPath(new URL('../fixtures/resolve-test-hosts.cjs', import.meta.url));

let setup: ProxiedWorld;
let world: World;
let certs: TestCertificates;
let front: Listening;
let proxy: TestProxy;
let strictProxy: TestProxy;
let tlsProxy: TestProxy;
let env: Record<string, string>;

beforeAll(async () => {
  setup = await startProxiedWorld();
  ({ world, certs, front, proxy } = setup);
  strictProxy = await startConnectProxy(`alice:${PASSWORD}`);
  tlsProxy = await startConnectProxy(`alice:${PASSWORD}`, certs);
  // The API behind a name only the proxy resolves, over HTTPS with a certificate the CLI trusts via the test CA.
  env = { ...world.env, ENERGY_BASE_URL: `https://${TEST_HOST}:${front.port}`, NODE_EXTRA_CA_CERTS: certs.caFile };
});
afterAll(async () => {
  await Promise.all([strictProxy.close(), tlsProxy.close()]);
  await setup.close();
});

const balanceRequests = () => world.sandbox.requestCount('/v1/balance');

describe('proxies from the environment', () => {
  it.each(['HTTPS_PROXY', 'https_proxy'])(
    'sends the signed request through a CONNECT tunnel named by %s',
    async (variable) => {
      const [tunnels, requests] = [proxy.tunnels.length, balanceRequests()];
      const result = await world.run(['balance', '--json'], {
        env: { ...env, [variable]: `http://127.0.0.1:${proxy.port}` },
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(json(result)).toMatchObject({ available_trx: expect.any(String) });
      expect(proxy.tunnels.slice(tunnels).map((t) => t.target)).toEqual([`${TEST_HOST}:${front.port}`]);
      expect(balanceRequests()).toBe(requests + 1);
    },
  );

  it('speaks TLS to an https:// proxy, with credentials', async () => {
    const [tunnels, requests] = [tlsProxy.tunnels.length, balanceRequests()];
    const result = await world.run(['balance', '--json'], {
      env: { ...env, HTTPS_PROXY: `https://alice:${PASSWORD}@127.0.0.1:${tlsProxy.port}` },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(tlsProxy.tunnels.slice(tunnels).map((t) => t.target)).toEqual([`${TEST_HOST}:${front.port}`]);
    expect(balanceRequests()).toBe(requests + 1);
  });

  it('keeps one tunnel for every page of order list --all', async () => {
    const tunnels = proxy.tunnels.length;
    const result = await world.run(['order', 'list', '--all', '--json'], {
      env: { ...env, HTTPS_PROXY: `127.0.0.1:${proxy.port}` },
    });
    expect(result.code).toBe(0);
    expect(proxy.tunnels.length - tunnels).toBe(1);
  });

  it('sends the proxy credentials and never shows them with --verbose', async () => {
    const tunnels = strictProxy.tunnels.length;
    const result = await world.run(['--verbose', 'balance'], {
      env: { ...env, HTTPS_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${strictProxy.port}` },
    });
    expect(result.code).toBe(0);
    expect(strictProxy.tunnels.slice(tunnels)).toHaveLength(1);
    expect(result.stderr).toContain(`through the proxy http://[REDACTED]@127.0.0.1:${strictProxy.port} (HTTPS_PROXY)`);
    expect(result.stderr + result.stdout).not.toContain(PASSWORD);
    expect(result.stderr).not.toContain('alice');
  });

  it('exits 7 (a connection failure, not the API refusing us) when the proxy answers 407, without retrying or reaching the API', async () => {
    const [tunnels, requests] = [strictProxy.tunnels.length, balanceRequests()];
    const result = await world.run(['balance'], {
      env: { ...env, HTTPS_PROXY: `http://alice:wrong-${PASSWORD}@127.0.0.1:${strictProxy.port}` },
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(
      /proxy http:\/\/\[REDACTED\]@127\.0\.0\.1:\d+ \(from HTTPS_PROXY\) refused the user name and password \(HTTP 407\)/,
    );
    expect(result.stderr).not.toContain(PASSWORD);
    expect(strictProxy.tunnels.length - tunnels).toBe(1);
    expect(balanceRequests()).toBe(requests);
    expectNoStackTrace(result);
  });

  it('an order stopped by a 407 is journaled as never sent (not "refused, 401"), and nothing stays pending', async () => {
    const address = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
    const before = world.sandbox.orders().length;
    const proxied = { env: { ...env, HTTPS_PROXY: `http://127.0.0.1:${strictProxy.port}` } };
    // order create meets the 407 on its options read (for intake), before anything is journaled or sent.
    const order = ['order', 'create', address, '--energy', '65000', '--hours', '1', '--expected-total', '3.700000'];
    const result = await world.run([...order, '--client-request-id', 'proxy-407-0'], proxied);
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain('(HTTP 407)');
    // An order request that does leave (energy api journals it first) is settled as never sent.
    const fields = ['-f', `address=${address}`, '-F', 'energy=65000', '-F', 'duration_hours=1'];
    const api = ['api', 'POST', '/v1/energy/orders', '-f', 'client_request_id=proxy-407-1', ...fields];
    const raw = await world.run([...api, '-f', 'expected_total_trx=3.700000'], proxied);
    expect(raw.code, raw.stderr).toBe(7);
    expect(raw.stderr).toContain('(HTTP 407)');
    expect(world.sandbox.orders()).toHaveLength(before);
    const pending = await world.run(['order', 'pending', '--json'], { env });
    expect(JSON.parse(pending.stdout)).toEqual({ items: [], unreadable: [] });
    const settled = readdirSync(join(world.stateDir, 'journal', 'settled')).map((name) =>
      JSON.parse(readFileSync(join(world.stateDir, 'journal', 'settled', name), 'utf8')),
    );
    expect(settled.find((record) => record.client_request_id === 'proxy-407-0')).toBeUndefined();
    expect(settled.find((record) => record.client_request_id === 'proxy-407-1')?.outcome).toMatchObject({
      kind: 'not-sent',
    });
  });

  it('says when a proxy asks for credentials that were not given (exit 7)', async () => {
    const result = await world.run(['balance', '--json'], {
      env: { ...env, HTTPS_PROXY: `http://127.0.0.1:${strictProxy.port}` },
    });
    expect(result.code).toBe(7);
    expect(JSON.parse(result.stderr)).toMatchObject({
      error: { exit_code: 7, message: expect.stringContaining('asks for a user name and password (HTTP 407)') },
    });
  });

  it.each([
    ['NO_PROXY', TEST_HOST],
    ['no_proxy', `.energy.test:${0}`],
    ['NO_PROXY', 'example.com, *'],
  ])('goes direct when %s=%s matches', async (variable, value) => {
    const list = value.replace(':0', `:${front.port}`);
    const [tunnels, requests] = [proxy.tunnels.length, balanceRequests()];
    const result = await world.run(['balance', '--json'], {
      // Going direct, the CLI itself must resolve the name: a test-only preload maps it to 127.0.0.1.
      env: {
        ...env,
        HTTPS_PROXY: `http://127.0.0.1:${proxy.port}`,
        [variable]: list,
        NODE_OPTIONS: `--require ${RESOLVE_TEST_HOSTS}`,
      },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(proxy.tunnels.length).toBe(tunnels);
    expect(balanceRequests()).toBe(requests + 1);
  });

  it('never sends loopback through a proxy', async () => {
    const [tunnels, requests] = [proxy.tunnels.length, balanceRequests()];
    const viaProxy = `http://127.0.0.1:${proxy.port}`;
    const result = await world.run(['balance', '--json'], {
      env: { ...world.env, HTTP_PROXY: viaProxy, HTTPS_PROXY: viaProxy },
    });
    expect(result.code).toBe(0);
    expect(proxy.tunnels.length).toBe(tunnels);
    expect(balanceRequests()).toBe(requests + 1);
  });

  it('exits 7 naming the proxy when it cannot be reached', async () => {
    const port = await closedPort();
    const result = await world.run(['balance', '--retries', '0'], {
      env: { ...env, HTTPS_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${port}` },
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(
      `cannot reach the proxy http://[REDACTED]@127.0.0.1:${port} (from HTTPS_PROXY): connection refused`,
    );
    expect(result.stderr).not.toContain(PASSWORD);
  });

  it('tunnels plain http:// through HTTP_PROXY too (for clients of other services, e.g. a TRON node)', async () => {
    const tunnels = proxy.tunnels.length;
    const origin = `http://${TEST_HOST}:${new URL(world.sandbox.url).port}`;
    const connection = new HttpConnection(
      origin,
      { connectMs: 2000, requestMs: 5000 },
      { env: { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` } },
    );
    try {
      const first = await connection.exchange({
        method: 'GET',
        pathAndQuery: '/v1/time',
        headers: {},
        body: undefined,
      });
      const second = await connection.exchange({
        method: 'GET',
        pathAndQuery: '/v1/time',
        headers: {},
        body: undefined,
      });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(JSON.parse(first.text)).toMatchObject({ unix_time: expect.any(Number) });
    } finally {
      await connection.close();
    }
    // One tunnel, kept alive for both requests.
    expect(proxy.tunnels.slice(tunnels).map((t) => t.target)).toEqual([
      `${TEST_HOST}:${new URL(world.sandbox.url).port}`,
    ]);
  });

  it('refuses a proxy scheme it does not speak with exit 2', async () => {
    const result = await world.run(['balance'], { env: { ...env, HTTPS_PROXY: 'socks5://127.0.0.1:1080' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('HTTPS_PROXY uses socks5://');
    expectNoStackTrace(result);
  });
});
