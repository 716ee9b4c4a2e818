/**
 * Two signed calls at once from a host whose clock is 15 minutes behind (as `ensure` reads the options and
 * the order list together): both meet a 401, one reading of the server's clock corrects the offset, and
 * both are signed again on it. Before, the second found the offset "already corrected" and failed (exit 3).
 * A real node:http server on 127.0.0.1 that refuses timestamps more than 5 minutes off, counted per path.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';

const BALANCE = { available_trx: '1.000000', held_trx: '0.000000', status: 'active' };
const SKEW_MS = -15 * 60_000;

interface Seen {
  path: string;
  status: number;
}

/** Holds the 401 of one path until `release()`: lets a test order the two answers. */
interface Gate {
  path: string;
  release: () => void;
  released: Promise<void>;
}

let url: URL;
const seen: Seen[] = [];
let gate: Gate | undefined;
let close: () => Promise<void>;

function answer(response: ServerResponse, path: string, status: number, body: unknown): void {
  seen.push({ path, status });
  const type = status === 200 ? 'application/json' : 'application/problem+json';
  response.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

beforeAll(async () => {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0]!;
      const now = Math.floor(Date.now() / 1000);
      if (path === '/v1/time') return answer(response, path, 200, { unix_time: now });
      const timestamp = Number(request.headers['x-request-timestamp']);
      if (Math.abs(timestamp - now) <= 300) return answer(response, path, 200, BALANCE);
      const problem = {
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'skew',
        code: 'AUTH_TIMESTAMP',
      };
      const held = gate?.path === path ? gate.released : Promise.resolve();
      void held.then(() => answer(response, path, 401, problem));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});
afterAll(() => close());
afterEach(() => {
  seen.length = 0;
  gate = undefined;
});

function skewedClient(): EnergyClient {
  return new EnergyClient({
    baseUrl: url,
    credentials: { apiKey: 'key_unit', apiSecret: 'secret-unit-0123456789' },
    retryPolicy: { retries: 0 },
    nowMs: () => Date.now() + SKEW_MS,
  });
}

/** Calls of /v1/balance and /v1/account (both answered with a balance body) at once. */
async function both(client: EnergyClient): Promise<unknown[]> {
  const call = (path: string) =>
    client.transport.send({ method: 'GET', path, auth: true, check: (value: unknown) => value });
  try {
    return await Promise.all([call('/v1/balance'), call('/v1/account')]);
  } finally {
    await client.close();
  }
}

const count = (path: string, status: number) => seen.filter((s) => s.path === path && s.status === status).length;

describe('a clock corrected while other calls are in flight', () => {
  it('two 401s at once: one check of the server clock (two readings: the first disagrees with this host), both calls signed again and answered', async () => {
    const results = await both(skewedClient());
    expect(results).toHaveLength(2);
    expect(count('/v1/time', 200)).toBe(2);
    for (const path of ['/v1/balance', '/v1/account']) {
      expect([count(path, 401), count(path, 200)]).toEqual([1, 1]);
    }
    expect(seen).toHaveLength(6);
  });

  it('a 401 that arrives after another call corrected the clock is signed again at once, no second reading', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    gate = { path: '/v1/account', release, released };
    const client = skewedClient();
    const running = both(client);
    // The balance call meets its 401, corrects the clock and is answered; only then the account call's 401.
    const deadline = Date.now() + 10_000;
    while (count('/v1/balance', 200) === 0) {
      if (Date.now() > deadline) throw new Error('the first call was never answered');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    release();
    await expect(running).resolves.toHaveLength(2);
    expect(count('/v1/time', 200)).toBe(2);
    expect([count('/v1/account', 401), count('/v1/account', 200)]).toEqual([1, 1]);
    expect(seen).toHaveLength(6);
  });
});
