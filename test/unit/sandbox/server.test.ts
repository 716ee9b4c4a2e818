import { Agent } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { useSandbox } from './fixtures.js';
import { call, pollUntil } from './signed-request.js';

const start = useSandbox();

describe('sandbox server', () => {
  it('listens on 127.0.0.1 with an ephemeral port and generated credentials', async () => {
    const s = await start();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.apiKey).toMatch(/^sbx_[0-9a-f]{16}$/);
    expect(Buffer.from(s.apiSecret, 'base64url')).toHaveLength(32);
  });

  it('uses the given credentials', async () => {
    const s = await start({ apiKey: 'key_1', apiSecret: 'secret' });
    expect([s.apiKey, s.apiSecret]).toEqual(['key_1', 'secret']);
    expect((await call(s, { path: '/v1/balance' })).status).toBe(200);
  });

  it('answers 429 with Retry-After when an API key empties its bucket', async () => {
    const s = await start({ rateLimit: { perSecond: 1, burst: 2 } });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call(s, { path: '/v1/balance' })).status);
    const limited = await call(s, { path: '/v1/balance' });
    expect(statuses).toEqual([200, 200, 429]);
    expect(limited.json.code).toBe('RATE_LIMITED');
    expect(limited.headers['retry-after']).toBe('1');
  });

  it('rate-limits /v1/time per remote address', async () => {
    const s = await start({ rateLimit: { perSecond: 1, burst: 1 } });
    expect((await call(s, { path: '/v1/time', sign: false })).status).toBe(200);
    const res = await call(s, { path: '/v1/time', sign: false });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
  });

  it('does not rate-limit when rateLimit is false', async () => {
    const s = await start({ rateLimit: false });
    for (let i = 0; i < 30; i += 1) expect((await call(s, { path: '/v1/time', sign: false })).status).toBe(200);
  });

  it('counts requests, in total and per path without the query', async () => {
    const s = await start();
    await call(s, { path: '/v1/time', sign: false });
    await call(s, { path: '/v1/energy/orders', query: '?limit=2' });
    await call(s, { path: '/v1/energy/orders', sign: false });
    expect(s.requestCount()).toBe(3);
    expect(s.requestCount('/v1/energy/orders')).toBe(2);
    expect(s.requestCount('/v1/energy/quotes')).toBe(0);
  });

  it('keeps connections alive and still closes promptly', async () => {
    const s = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ports = new Set<number>();
    agent.on('free', (socket) => ports.add(socket.localPort ?? 0));
    await call(s, { path: '/v1/balance', agent });
    await call(s, { path: '/v1/balance', agent });
    expect(ports.size).toBe(1);
    const started = performance.now();
    await s.close();
    expect(performance.now() - started).toBeLessThan(1000);
    agent.destroy();
  });

  it('closes while a delayed request is still pending', async () => {
    const s = await start();
    s.inject({ kind: 'delay', ms: 10_000 });
    const pending = call(s, { path: '/v1/balance' }).catch((error: unknown) => error);
    // Closing must find the request held by the delay, so it waits until the request has arrived.
    await pollUntil(
      async () => s.requestCount('/v1/balance'),
      (n) => n === 1,
    );
    const started = performance.now();
    await s.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('moves the server clock with setClockOffset', async () => {
    const s = await start({ clockOffsetSeconds: -120 });
    const before = (await call(s, { path: '/v1/time', sign: false })).json.unix_time as number;
    s.setClockOffset(0);
    const after = (await call(s, { path: '/v1/time', sign: false })).json.unix_time as number;
    expect(after - before).toBeGreaterThanOrEqual(119);
  });

  it('moves the server clock on with advance, never back, by whole ms', async () => {
    const s = await start();
    const before = (await call(s, { path: '/v1/time', sign: false })).json.unix_time as number;
    s.advance(7_200_000);
    const after = (await call(s, { path: '/v1/time', sign: false })).json.unix_time as number;
    expect(after - before).toBeGreaterThanOrEqual(7200);
    for (const bad of [-1, 0.5, Number.NaN]) expect(() => s.advance(bad)).toThrow(RangeError);
  });

  it('refuses invalid options at start', async () => {
    await expect(startSandbox({ startingBalance: '10' })).rejects.toThrow(RangeError);
    await expect(startSandbox({ apiKey: 'a:b' })).rejects.toThrow(RangeError);
  });

  it('refuses malformed rates', async () => {
    const s = await start();
    expect(() => s.setRates({ 2: '0.000001' })).toThrow(RangeError);
    expect(() => s.setRates({ 1: '0.1' })).toThrow(RangeError);
  });
});
