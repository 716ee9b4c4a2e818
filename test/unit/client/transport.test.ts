import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';
import type { OffsetStore } from '../../../src/client/clock.js';
import { ApiError, AuthError, ExitCode, NetworkError, ResponseShapeError } from '../../../src/domain/errors.js';
import { createHash, createHmac } from 'node:crypto';
import { sampleOrder } from '../../helpers/sample-order.js';
import { jsonReply, problemReply, startScriptedServer, type ScriptedServer } from '../../helpers/http-server.js';
import { fakeClock } from '../../helpers/fake-clock.js';

const credentials = { apiKey: 'key_unit', apiSecret: 'secret-unit-0123456789' };
const BALANCE = { available_trx: '1.000000', held_trx: '0.000000', status: 'active' };
const QUOTE = {
  address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  energy: 65000,
  duration_hours: 1,
  energy_trx: '2.600000',
  activation_trx: null,
  total_trx: '2.600000',
  can_afford: true,
};

let server: ScriptedServer;
let clients: EnergyClient[] = [];
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  server.seen.length = 0;
});

function makeClient(
  options: { nowMs?: () => number; offsetStore?: OffsetStore; retries?: number; requestMs?: number } = {},
) {
  const delays: number[] = [];
  const client = new EnergyClient({
    baseUrl: server.url,
    credentials,
    retryPolicy: { retries: options.retries ?? 3, baseDelayMs: 10, maxDelayMs: 5_000 },
    timeouts: { requestMs: options.requestMs ?? 5_000, connectMs: 1_000 },
    sleepMs: async (ms) => {
      delays.push(ms);
    },
    ...(options.nowMs && { nowMs: options.nowMs }),
    ...(options.offsetStore && { offsetStore: options.offsetStore }),
  });
  clients.push(client);
  return { client, delays };
}

/**
 * The signature the server should have received, computed the way a server would: from the spec's rules
 * with node:crypto, not with src/signing (which would stay green when signing is broken). The exact bytes
 * are pinned by the openssl vectors in wire-vectors.test.ts.
 */
function expectedAuthorization(seen: ScriptedServer['seen'][number]): string {
  const [path, query = ''] = seen.url.split(/(?=\?)/);
  const hash = seen.body.length === 0 ? '' : createHash('sha256').update(seen.body).digest('hex');
  const payload = `${seen.headers['x-request-timestamp']}\n${seen.method}\n${path}\n${query}\n${hash}`;
  return `HMAC-SHA256 ${credentials.apiKey}:${createHmac('sha256', credentials.apiSecret).update(payload).digest('base64')}`;
}

describe('signing on the wire', () => {
  it('sends the query exactly as signed, with its "?"', async () => {
    server.script(jsonReply(200, { items: [], next_cursor: null }));
    await makeClient().client.listOrders({ limit: 5, cursor: 'a+b/c= d' });
    const [seen] = server.seen;
    expect(seen!.url).toBe('/v1/energy/orders?limit=5&cursor=a%2Bb%2Fc%3D%20d');
    expect(seen!.headers.authorization).toBe(expectedAuthorization(seen!));
  });

  it('signs the exact body bytes and sends application/json', async () => {
    server.script(jsonReply(200, QUOTE));
    await makeClient().client.quote({ address: QUOTE.address, energy: 65000, duration_hours: 1 });
    const [seen] = server.seen;
    expect(seen!.headers['content-type']).toBe('application/json');
    expect(seen!.body.toString()).toBe(`{"address":"${QUOTE.address}","energy":65000,"duration_hours":1}`);
    expect(seen!.headers.authorization).toBe(expectedAuthorization(seen!));
  });

  it('sends GET /v1/time without credentials', async () => {
    server.script(jsonReply(200, { unix_time: 1_800_000_000 }));
    await makeClient().client.time();
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
  });
});

describe('retries', () => {
  it('retries 503 with backoff, re-signing each attempt over identical body bytes', async () => {
    server.script(problemReply(503, 'UNAVAILABLE'), problemReply(502, 'BAD_GATEWAY'), jsonReply(201, orderBody()));
    const clock = fakeClock(1_800_000_000_000);
    const { client, delays } = makeClient({ nowMs: () => clock.advance(1500) });
    const result = await client.createOrder(orderRequest());
    expect(result.created).toBe(true);
    expect(server.seen).toHaveLength(3);
    const timestamps = server.seen.map((s) => s.headers['x-request-timestamp']);
    expect(new Set(timestamps).size).toBe(3);
    expect(new Set(server.seen.map((s) => s.body.toString())).size).toBe(1);
    for (const seen of server.seen) expect(seen.headers.authorization).toBe(expectedAuthorization(seen));
    expect(delays).toHaveLength(2);
    expect(delays[1]!).toBeGreaterThanOrEqual(10);
  });

  it('waits as Retry-After says (seconds) on 429', async () => {
    server.script(problemReply(429, 'RATE_LIMITED', { 'retry-after': '2' }), jsonReply(200, BALANCE));
    const { client, delays } = makeClient();
    await client.balance();
    expect(delays).toEqual([2000]);
  });

  it("holds back the next calls on the same client until a 429's Retry-After has passed", async () => {
    server.script(problemReply(429, 'RATE_LIMITED', { 'retry-after': '2' }), jsonReply(200, BALANCE));
    const now = Date.parse('2026-11-23T10:00:00Z');
    const { client, delays } = makeClient({ nowMs: () => now });
    await client.balance();
    expect(delays).toEqual([2000]);
    // No time has passed on this clock: another call must wait the same pause before sending anything.
    const sent = server.seen.length;
    await client.balance();
    expect(delays).toEqual([2000, 2000]);
    expect(server.seen.length - sent).toBe(1);
  });

  it('waits until a Retry-After HTTP-date', async () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    const date = new Date(now + 3000).toUTCString();
    server.script(problemReply(429, 'RATE_LIMITED', { 'retry-after': date }), jsonReply(200, BALANCE));
    const { client, delays } = makeClient({ nowMs: () => now });
    await client.balance();
    expect(delays).toEqual([3000]);
  });

  it('reads a Retry-After date on the server clock, using the known offset', async () => {
    const localNow = Date.parse('2026-11-23T10:00:00Z');
    const serverNow = localNow + 900_000;
    server.script(
      problemReply(429, 'RATE_LIMITED', { 'retry-after': new Date(serverNow + 2000).toUTCString() }),
      jsonReply(200, BALANCE),
    );
    const { client, delays } = makeClient({
      nowMs: () => localNow,
      offsetStore: { load: () => 900, save: () => undefined },
    });
    await client.balance();
    expect(delays).toEqual([2000]);
  });

  it.each([
    ['negative', '-5'],
    ['400 digits', '9'.repeat(400)],
    ['garbage', 'soon'],
    ['not an HTTP-date', '2026-11-23T10:00:07Z'],
  ])('falls back to backoff when Retry-After is not valid (%s)', async (_name, header) => {
    server.script(problemReply(429, 'RATE_LIMITED', { 'retry-after': header }), jsonReply(200, BALANCE));
    const { client, delays } = makeClient();
    await client.balance();
    expect(server.seen).toHaveLength(2);
    // The first backoff step (base 10 ms): half fixed, half random.
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(5);
    expect(delays[0]).toBeLessThanOrEqual(10);
  });

  it('gives up at once, exit 6, when Retry-After is beyond the cap', async () => {
    server.script(problemReply(429, 'RATE_LIMITED', { 'retry-after': '3600' }));
    const { client, delays } = makeClient();
    const error = await client.balance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).exitCode).toBe(ExitCode.rateLimited);
    expect((error as ApiError).retryAfterSeconds).toBe(3600);
    expect(delays).toEqual([]);
  });

  it('stops after the bounded number of retries with the last status', async () => {
    server.script(problemReply(503, 'UNAVAILABLE'));
    const { client } = makeClient({ retries: 2 });
    const error = await client.balance().catch((e: unknown) => e);
    expect((error as ApiError).exitCode).toBe(ExitCode.service);
    expect(server.seen).toHaveLength(3);
  });

  it.each([400, 404, 409, 413, 415])('never retries %i', async (status) => {
    server.script(problemReply(status, 'NOPE'));
    const error = await makeClient()
      .client.balance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(server.seen).toHaveLength(1);
  });

  it('retries a dropped connection and then fails with exit 7', async () => {
    server.script((_req, res) => res.socket?.destroy());
    const error = await makeClient({ retries: 1 })
      .client.balance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/closed the connection.*2 attempts/);
    expect(server.seen).toHaveLength(2);
  });

  it('times out a server that never answers', async () => {
    server.script(() => undefined);
    const error = await makeClient({ retries: 0, requestMs: 200 })
      .client.balance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toMatch(/timed out after 200ms/);
  });
});

describe('clock correction on 401', () => {
  function memoryStore(): OffsetStore & { saved: number[] } {
    const saved: number[] = [];
    return { saved, load: () => undefined, save: (_origin, offset) => saved.push(offset) };
  }

  it('reads the server clock (again: 15 min from this host is more than the clock takes on one word), retries once on it, and saves the offset', async () => {
    const serverTime = Math.floor(Date.now() / 1000) + 900;
    server.script(
      problemReply(401, 'AUTH_TIMESTAMP'),
      jsonReply(200, { unix_time: serverTime }),
      jsonReply(200, { unix_time: serverTime }),
      jsonReply(200, BALANCE),
    );
    const store = memoryStore();
    await makeClient({ offsetStore: store }).client.balance();
    expect(server.seen.map((s) => s.url)).toEqual(['/v1/balance', '/v1/time', '/v1/time', '/v1/balance']);
    expect(Math.abs(Number(server.seen[3]!.headers['x-request-timestamp']) - serverTime)).toBeLessThanOrEqual(1);
    expect(Math.abs(store.saved[0]! - 900)).toBeLessThanOrEqual(1);
  });

  it('a run whose three readings of the server clock disagree with each other and this host fails, naming them', async () => {
    const now = Math.floor(Date.now() / 1000);
    server.script(
      jsonReply(200, { unix_time: now + 7200 }),
      jsonReply(200, { unix_time: now - 7200 }),
      jsonReply(200, { unix_time: now + 86_400 }),
    );
    const error = await makeClient()
      .client.checkClock()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as Error).message).toBe(
      `GET /v1/time answered ${now + 7200}, ${now - 7200}, ${now + 86_400}: 3 readings that disagree with each other and with this host's clock by more than 120 s`,
    );
    expect(server.seen.map((s) => s.url)).toEqual(['/v1/time', '/v1/time', '/v1/time']);
  });

  it('does not retry when the clock was right: the 401 is the answer', async () => {
    server.script(problemReply(401, 'AUTH_SIGNATURE'), jsonReply(200, { unix_time: Math.floor(Date.now() / 1000) }));
    const error = await makeClient()
      .client.balance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).hint).toMatch(/Troubleshooting signature errors/);
    expect(server.seen.map((s) => s.url)).toEqual(['/v1/balance', '/v1/time']);
  });

  it('a 401, then a /v1/time that cannot be the time (-5): the 401 stands (exit 3), no retry on that clock, nothing stored', async () => {
    server.script(problemReply(401, 'AUTH_TIMESTAMP'), jsonReply(200, { unix_time: -5 }), jsonReply(200, BALANCE));
    const store = memoryStore();
    const error = await makeClient({ offsetStore: store })
      .client.balance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).exitCode).toBe(3);
    expect(server.seen.map((s) => s.url)).toEqual(['/v1/balance', '/v1/time']);
    expect(store.saved).toEqual([]);
  });

  it('never loops on 401', async () => {
    const serverTime = () => Math.floor(Date.now() / 1000) + 900;
    server.script(
      problemReply(401, 'AUTH_TIMESTAMP'),
      (_r, res) => jsonReply(200, { unix_time: serverTime() })(_r, res),
      problemReply(401, 'AUTH_TIMESTAMP'),
    );
    const error = await makeClient()
      .client.balance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(server.seen).toHaveLength(3);
  });

  it('uses a remembered offset for the first attempt', async () => {
    server.script(jsonReply(200, BALANCE));
    const now = 1_800_000_000_000;
    await makeClient({ nowMs: () => now, offsetStore: { load: () => -600, save: () => undefined } }).client.balance();
    expect(server.seen[0]!.headers['x-request-timestamp']).toBe(String(now / 1000 - 600));
  });
});

describe('responses that break the spec', () => {
  it.each([
    ['an HTML page', 'text/html', '<!DOCTYPE html><html>bad gateway</html>', /text\/html.*HTML page/],
    ['truncated JSON', 'application/json', '{"available_trx":"1.0', /not valid JSON/],
    ['a missing key', 'application/json', '{"available_trx":"1.000000","status":"active"}', /held_trx is missing/],
    [
      'an amount without six digits',
      'application/json',
      '{"available_trx":"1.5","held_trx":"0.000000","status":"a"}',
      /available_trx should be an amount/,
    ],
  ])('refuses %s with exit 7 naming the status', async (_label, type, body, message) => {
    server.script((_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
    const error = await makeClient()
      .client.balance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as ResponseShapeError).exitCode).toBe(ExitCode.service);
    expect((error as Error).message).toMatch(/HTTP 200/);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a 2xx other than 200 or 201 on order creation', async () => {
    server.script(jsonReply(202, orderBody()));
    const error = await makeClient()
      .client.createOrder(orderRequest())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
  });

  it('keeps the Problem Details of an error response', async () => {
    server.script(problemReply(409, 'PRICE_CHANGED'));
    const error = (await makeClient()
      .client.balance()
      .catch((e: unknown) => e)) as ApiError;
    expect(error.exitCode).toBe(ExitCode.conflict);
    expect(error.problem?.code).toBe('PRICE_CHANGED');
    expect(error.message).toMatch(/PRICE_CHANGED: PRICE_CHANGED detail/);
  });
});

function orderRequest() {
  return {
    client_request_id: 'req-1',
    address: QUOTE.address,
    energy: 65000,
    duration_hours: 1,
    expected_total_trx: '2.600000',
  };
}

function orderBody() {
  return sampleOrder();
}
