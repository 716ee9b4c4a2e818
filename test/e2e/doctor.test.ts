/**
 * `energy doctor` against the sandbox (all well, a wrong secret) and against node:http servers that answer
 * 401, are down, or have a clock ten minutes ahead. Effects are counted at the servers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { deadUrl, expectNoStackTrace } from '../helpers/e2e.js';
import { shiftedClockEnv } from '../helpers/shifted-clock.js';
import { createWorld, json, type World } from '../helpers/world.js';

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  hint: string | null;
}

let world: World;
/** The sandbox serves the TRON node too: no test reaches the built-in TronGrid. */
let env: Record<string, string | undefined>;

function checks(result: CliResult): Record<string, Check> {
  const body = json<{ checks: Check[] }>(result);
  return Object.fromEntries(body.checks.map((check) => [check.name, check]));
}

/** A fake API: GET /v1/time with the clock `skewSeconds` ahead, GET /v1/balance with `balanceStatus`. */
async function fakeApi(
  skewSeconds: number,
  balanceStatus: 200 | 401,
): Promise<{ url: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    const send = (status: number, body: unknown, type = 'application/json') =>
      response.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
    if (request.url === '/v1/time') send(200, { unix_time: Math.floor(Date.now() / 1000) + skewSeconds });
    else if (request.url === '/v1/balance' && balanceStatus === 200)
      send(200, { available_trx: '10.000000', held_trx: '0.000000', status: 'active' });
    else
      send(
        401,
        { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'bad key', code: 'AUTH_INVALID_KEY' },
        'application/problem+json',
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}

beforeAll(async () => {
  world = await createWorld();
  env = { ...world.env, ENERGY_TRON_NODE: world.sandbox.url };
});
afterAll(async () => world.close());

describe('energy doctor', () => {
  it('passes every check against the sandbox, with one time, one signed balance and one node request', async () => {
    const before = {
      time: world.sandbox.requestCount('/v1/time'),
      balance: world.sandbox.requestCount('/v1/balance'),
      node: world.sandbox.tronRequests().filter((r) => r.path === '/wallet/getnowblock').length,
    };
    const result = await world.run(['doctor', '--json'], { env });
    expect(result.code).toBe(0);
    const found = checks(result);
    expect(Object.keys(found)).toEqual([
      'config',
      'profile',
      'api',
      'clock',
      'credentials',
      'tron-node',
      'state',
      'journal',
    ]);
    for (const name of ['api', 'clock', 'credentials', 'tron-node', 'state', 'journal'])
      expect(found[name]!.status, `${name}: ${found[name]!.detail}`).toBe('ok');
    expect(found.profile!.detail).toContain('api-secret from environment');
    expect(found.api!.detail).toContain('reached directly');
    expect(world.sandbox.requestCount('/v1/time')).toBe(before.time + 1);
    expect(world.sandbox.requestCount('/v1/balance')).toBe(before.balance + 1);
    expect(world.sandbox.tronRequests().filter((r) => r.path === '/wallet/getnowblock').length).toBe(before.node + 1);
    expect(result.stdout + result.stderr).not.toContain(world.sandbox.apiSecret);
  });

  it('the container mode as documented (the environment, the secret in a file, no config folder): every check ok, no warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-doctor-container-'));
    const secret = join(dir, 'energy-api-secret');
    writeFileSync(secret, `${world.sandbox.apiSecret}\n`, { mode: 0o600 });
    const result = await world.run(['doctor', '--json'], {
      env: {
        ...env,
        HOME: join(dir, 'home'),
        ENERGY_CONFIG_DIR: undefined,
        ENERGY_API_SECRET: undefined,
        ENERGY_API_SECRET_FILE: secret,
        ENERGY_STATE_DIR: join(dir, 'state'),
      },
    });
    expect(result.code, result.stderr).toBe(0);
    const found = checks(result);
    for (const check of Object.values(found)) expect(check.status, `${check.name}: ${check.detail}`).toBe('ok');
    expect(found.config!.detail).toMatch(/^no config folder \S+: settings come from options and the environment only$/);
    expect(found.profile!.detail).toContain('api-secret from environment: file');
  });

  it('FAILS with a wrong secret: exit 3, the credentials check failed, the secret never printed', async () => {
    const wrong = 'wrong-secret-for-doctor-Zq8vXw2L';
    for (const args of [['doctor'], ['doctor', '--json']]) {
      const result = await world.run(args, { env: { ...env, ENERGY_API_SECRET: wrong } });
      expect(result.code).toBe(3);
      expect(result.stdout + result.stderr).not.toContain(wrong);
      expectNoStackTrace(result);
      if (args.includes('--json')) expect(checks(result).credentials!.status).toBe('fail');
      else expect(result.stdout).toMatch(/^credentials\s+fail\s+/m);
    }
  });

  it('says where a secret from a helper command comes from, runs it, and never prints it', async () => {
    const setKey = await world.run(['config', 'set', 'api-key', world.sandbox.apiKey], { env });
    const setCommand = await world.run(
      ['config', 'set', 'api-secret-command', `printf %s ${world.sandbox.apiSecret}`],
      {
        env,
      },
    );
    expect([setKey.code, setCommand.code]).toEqual([0, 0]);
    const result = await world.run(['doctor', '--json'], {
      env: { ...env, ENERGY_API_KEY: undefined, ENERGY_API_SECRET: undefined },
    });
    await world.run(['config', 'unset', 'api-secret-command'], { env });
    expect(result.code).toBe(0);
    const found = checks(result);
    expect(found.profile!.detail).toContain('api-secret from profile: command `printf %s [REDACTED]`');
    expect(found.credentials!.status).toBe('ok');
  });

  it('fails with exit 3 when the server answers 401, after reaching it', async () => {
    const api = await fakeApi(0, 401);
    try {
      const result = await world.run(['doctor', '--json'], { env: { ...env, ENERGY_BASE_URL: api.url } });
      expect(result.code).toBe(3);
      const found = checks(result);
      expect(found.api!.status).toBe('ok');
      expect(found.credentials!.status).toBe('fail');
      expect(api.hits.filter((hit) => hit === 'GET /v1/balance').length).toBeGreaterThanOrEqual(1);
    } finally {
      api.server.close();
    }
  });

  it('warns of a clock ten minutes off, and still exits 0', async () => {
    const api = await fakeApi(600, 200);
    try {
      const result = await world.run(['doctor', '--json'], { env: { ...env, ENERGY_BASE_URL: api.url } });
      const found = checks(result);
      expect(found.clock!.status).toBe('warn');
      expect(found.clock!.detail).toMatch(/behind the server's/);
      expect(found.credentials!.status).toBe('ok');
      expect(result.code).toBe(0);
    } finally {
      api.server.close();
    }
  });

  it("a host clock ten minutes fast: the clock warns, and the node's head block is judged on the server's clock (not behind)", async () => {
    const result = await world.run(['doctor', '--json'], { env: { ...env, ...shiftedClockEnv(600_000) } });
    const found = checks(result);
    expect(found.clock!.status).toBe('warn');
    expect(found['tron-node']!.status, found['tron-node']!.detail).toBe('ok');
    expect(found['tron-node']!.detail).toMatch(/head block \d+, \d s old by the API server's clock/);
    expect(result.code).toBe(0);
  });

  it('fails with exit 7 when the API is down, and says so in text', async () => {
    const url = await deadUrl();
    const result = await world.run(['doctor'], { env: { ...env, ENERGY_BASE_URL: url } });
    expect(result.code).toBe(7);
    expect(result.stdout).toMatch(/^api\s+fail\s+/m);
    expect(result.stderr).toContain('doctor: ');
    expectNoStackTrace(result);
  });

  it('fails with exit 2 for a profile that does not exist, before any request', async () => {
    const before = world.sandbox.requestCount();
    const result = await world.run(['--profile', 'nosuch', 'doctor', '--json'], {
      env: { ...env, ENERGY_BASE_URL: undefined },
    });
    expect(result.code).toBe(2);
    expect(checks(result).profile!.status).toBe('fail');
    expect(world.sandbox.requestCount()).toBe(before);
  });
});
