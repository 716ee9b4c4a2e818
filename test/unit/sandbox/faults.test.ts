import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { testAddress } from './addresses.js';
import { call, pollUntil, postJson } from './signed-request.js';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(() => sandbox.close());

const ORDERS = '/v1/energy/orders';
const order = {
  client_request_id: 'fault-1',
  address: testAddress(1),
  energy: 65_000,
  duration_hours: 1,
  expected_total_trx: '3.700000',
};

describe('sandbox faults', () => {
  it('status: answers the status as Problem Details with Retry-After and creates nothing', async () => {
    sandbox.inject({ kind: 'status', status: 503, retryAfter: '2' });
    const res = await postJson(sandbox, ORDERS, order);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(sandbox.orders()).toHaveLength(0);
  });

  it('status: is used up after one request by default', async () => {
    sandbox.inject({ kind: 'status', status: 500 });
    expect((await call(sandbox, { path: '/v1/balance' })).status).toBe(500);
    expect((await call(sandbox, { path: '/v1/balance' })).status).toBe(200);
  });

  it('times: applies a fault that many times', async () => {
    sandbox.inject({ kind: 'status', status: 502, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call(sandbox, { path: '/v1/balance' })).status);
    expect(statuses).toEqual([502, 502, 200]);
  });

  it('match: applies only to the matching method and path', async () => {
    sandbox.inject({ kind: 'status', status: 500, match: { method: 'POST', path: ORDERS } });
    expect((await call(sandbox, { path: ORDERS })).status).toBe(200);
    expect(
      (await postJson(sandbox, '/v1/energy/quotes', { address: testAddress(1), energy: 65_000, duration_hours: 1 }))
        .status,
    ).toBe(200);
    expect((await postJson(sandbox, ORDERS, order)).status).toBe(500);
  });

  it('takes the first queued fault that matches', async () => {
    sandbox.inject({ kind: 'status', status: 500, match: { path: '/v1/time' } });
    sandbox.inject({ kind: 'status', status: 503 });
    sandbox.inject({ kind: 'status', status: 504 });
    expect((await call(sandbox, { path: '/v1/balance' })).status).toBe(503);
    expect((await call(sandbox, { path: '/v1/balance' })).status).toBe(504);
    expect((await call(sandbox, { path: '/v1/time', sign: false })).status).toBe(500);
  });

  it('clearFaults: removes every queued fault', async () => {
    sandbox.inject({ kind: 'status', status: 500, times: 5 });
    sandbox.clearFaults();
    expect((await call(sandbox, { path: '/v1/balance' })).status).toBe(200);
  });

  it('delay: answers normally after the delay', async () => {
    sandbox.inject({ kind: 'delay', ms: 250 });
    const started = performance.now();
    const res = await call(sandbox, { path: '/v1/balance' });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('delay: makes a client with a shorter timeout give up', async () => {
    sandbox.inject({ kind: 'delay', ms: 500 });
    await expect(call(sandbox, { path: '/v1/balance', timeoutMs: 100 })).rejects.toThrow('client timeout');
  });

  it('delay: still commits an order whose client gave up waiting', async () => {
    sandbox.inject({ kind: 'delay', ms: 300 });
    await expect(postJson(sandbox, ORDERS, order, { timeoutMs: 100 })).rejects.toThrow('client timeout');
    await pollUntil(
      async () => sandbox.orders().length,
      (n) => n === 1,
      2000,
    );
  });

  it('hold: answers nothing until releaseHeld, then answers every held request and holds no more', async () => {
    sandbox.inject({ kind: 'hold', times: 3, match: { path: '/v1/balance' } });
    let answered = 0;
    const held = [1, 2].map(() => call(sandbox, { path: '/v1/balance' }).then((res) => (answered++, res)));
    await pollUntil(
      async () => sandbox.requestCount('/v1/balance'),
      (n) => n === 2,
      2000,
    );
    // Other paths are not held.
    expect((await call(sandbox, { path: '/v1/time', sign: false })).status).toBe(200);
    expect(answered).toBe(0);
    sandbox.releaseHeld();
    expect((await Promise.all(held)).map((res) => res.status)).toEqual([200, 200]);
    // The third 'times' was dropped with the release.
    expect((await call(sandbox, { path: '/v1/balance', timeoutMs: 2000 })).status).toBe(200);
  });

  it('hold: a request still held when the sandbox closes ends with its connection', async () => {
    sandbox.inject({ kind: 'hold' });
    const held = call(sandbox, { path: '/v1/balance' });
    await pollUntil(
      async () => sandbox.requestCount('/v1/balance'),
      (n) => n === 1,
      2000,
    );
    await sandbox.close();
    await expect(held).rejects.toThrow();
  });

  it('drop: closes the connection before handling and commits nothing', async () => {
    sandbox.inject({ kind: 'drop' });
    await expect(postJson(sandbox, ORDERS, order)).rejects.toThrow();
    expect(sandbox.orders()).toHaveLength(0);
    expect(sandbox.requestCount(ORDERS)).toBe(1);
  });

  it('drop-after-commit: commits the order, drops the answer, and a retry gets the order with 200', async () => {
    sandbox.inject({ kind: 'drop-after-commit' });
    await expect(postJson(sandbox, ORDERS, order)).rejects.toThrow();
    expect(sandbox.orders()).toHaveLength(1);
    const retry = await postJson(sandbox, ORDERS, order);
    expect(retry.status).toBe(200);
    expect(retry.json.id).toBe(sandbox.orders()[0]?.id);
  });

  it('raw: answers exactly the given status, content type and body', async () => {
    const html = '<html><body>502 Bad Gateway</body></html>';
    sandbox.inject({ kind: 'raw', status: 502, contentType: 'text/html', body: html });
    const res = await call(sandbox, { path: '/v1/balance' });
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.text).toBe(html);
  });

  it('raw: can send truncated JSON with a success status', async () => {
    sandbox.inject({ kind: 'raw', status: 200, contentType: 'application/json', body: '{"available_trx":"1.0' });
    const res = await call(sandbox, { path: '/v1/balance' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"available_trx":"1.0');
  });

  it('refuses a malformed fault at inject time', () => {
    expect(() => sandbox.inject({ kind: 'status', status: 42 })).toThrow(RangeError);
    expect(() => sandbox.inject({ kind: 'drop', times: 0 })).toThrow(RangeError);
  });
});
