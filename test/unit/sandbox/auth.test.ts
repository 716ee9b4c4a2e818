import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { hmacSignature } from '../../../src/signing/index.js';
import { testAddress } from './addresses.js';
import { call, nowSeconds, postJson } from './signed-request.js';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(() => sandbox.close());

const quoteBody = () => ({ address: testAddress(1), energy: 65_000, duration_hours: 1 });

describe('sandbox authentication', () => {
  it('accepts a correctly signed request', async () => {
    const res = await call(sandbox, { path: '/v1/balance' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ available_trx: '1000.000000', held_trx: '0.000000', status: 'active' });
  });

  it('serves /v1/time without authentication', async () => {
    const res = await call(sandbox, { path: '/v1/time', sign: false });
    expect(res.status).toBe(200);
    expect(Math.abs(res.json.unix_time - nowSeconds())).toBeLessThanOrEqual(1);
  });

  it('refuses a request without headers with AUTH_MISSING', async () => {
    const res = await call(sandbox, { path: '/v1/balance', sign: false });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json).toMatchObject({ status: 401, code: 'AUTH_MISSING', title: 'Unauthorized' });
    expect(res.json.type).toBe('https://sandbox.energy.invalid/problems/auth-missing');
  });

  it('refuses another scheme with AUTH_SCHEME', async () => {
    const res = await call(sandbox, {
      path: '/v1/balance',
      sign: false,
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'x-request-timestamp': String(nowSeconds()) },
    });
    expect(res.json.code).toBe('AUTH_SCHEME');
  });

  it('refuses a wrong key with AUTH_KEY', async () => {
    const res = await call(sandbox, { path: '/v1/balance', sign: { apiKey: 'sbx_nope' } });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('AUTH_KEY');
  });

  it('refuses a wrong secret with AUTH_SIGNATURE', async () => {
    const res = await call(sandbox, { path: '/v1/balance', sign: { apiSecret: 'not-the-secret' } });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('AUTH_SIGNATURE');
  });

  it('refuses a body changed after signing', async () => {
    const signed = JSON.stringify(quoteBody());
    const sent = JSON.stringify({ ...quoteBody(), energy: 66_000 });
    const res = await call(sandbox, { method: 'POST', path: '/v1/energy/quotes', body: sent, sign: { body: signed } });
    expect(res.json.code).toBe('AUTH_SIGNATURE');
  });

  it('verifies over the raw body bytes, not a re-serialisation', async () => {
    const body = '{ "address" : "' + testAddress(1) + '",\n "energy": 65000, "duration_hours": 1 }';
    const res = await call(sandbox, { method: 'POST', path: '/v1/energy/quotes', body });
    expect(res.status).toBe(200);
  });

  it('verifies the query exactly as transmitted, without re-encoding', async () => {
    // %7E is "~": a server that decodes and re-encodes would see a different string.
    const res = await call(sandbox, { path: '/v1/energy/orders', query: '?limit=5&x=%7E' });
    expect(res.status).toBe(200);
  });

  it('refuses a query signed without its leading "?"', async () => {
    const timestamp = nowSeconds();
    const payload = `${timestamp}\nGET\n/v1/energy/orders\nlimit=5\n`;
    const res = await call(sandbox, {
      path: '/v1/energy/orders',
      query: '?limit=5',
      sign: false,
      headers: {
        authorization: `HMAC-SHA256 ${sandbox.apiKey}:${hmacSignature(sandbox.apiSecret, payload)}`,
        'x-request-timestamp': String(timestamp),
      },
    });
    expect(res.json.code).toBe('AUTH_SIGNATURE');
  });

  it('refuses a query that was not signed at all', async () => {
    const res = await call(sandbox, { path: '/v1/energy/orders', query: '?limit=5', sign: { query: '' } });
    expect(res.json.code).toBe('AUTH_SIGNATURE');
  });

  it('uses the empty string, not the hash of nothing, as the body hash of a GET', async () => {
    const timestamp = nowSeconds();
    const emptyHash = createHash('sha256').update('').digest('hex');
    const signWith = (hash: string) =>
      call(sandbox, {
        path: '/v1/balance',
        sign: false,
        headers: {
          authorization: `HMAC-SHA256 ${sandbox.apiKey}:${hmacSignature(sandbox.apiSecret, `${timestamp}\nGET\n/v1/balance\n\n${hash}`)}`,
          'x-request-timestamp': String(timestamp),
        },
      });
    expect((await signWith('')).status).toBe(200);
    expect((await signWith(emptyHash)).json.code).toBe('AUTH_SIGNATURE');
  });

  it('treats a POST without a body as having an empty body hash', async () => {
    // Authentication passes; the request then fails on its (missing) JSON.
    const res = await call(sandbox, {
      method: 'POST',
      path: '/v1/energy/quotes',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('MALFORMED_JSON');
  });

  it('refuses a timestamp more than 300 s old and names the server time', async () => {
    const res = await call(sandbox, { path: '/v1/balance', sign: { timestamp: nowSeconds() - 301 } });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('AUTH_TIMESTAMP');
    expect(res.json.detail).toMatch(new RegExp(`server time ${nowSeconds()}|server time ${nowSeconds() - 1}`));
  });

  it('accepts a timestamp 290 s off', async () => {
    const res = await call(sandbox, { path: '/v1/balance', sign: { timestamp: nowSeconds() + 290 } });
    expect(res.status).toBe(200);
  });

  it('judges timestamps by the sandbox clock, offset included', async () => {
    sandbox.setClockOffset(3600);
    expect((await call(sandbox, { path: '/v1/balance' })).json.code).toBe('AUTH_TIMESTAMP');
    const server = (await call(sandbox, { path: '/v1/time', sign: false })).json.unix_time as number;
    expect(server - nowSeconds()).toBeGreaterThanOrEqual(3599);
    expect((await call(sandbox, { path: '/v1/balance', sign: { timestamp: server } })).status).toBe(200);
  });

  it('answers 429 with Retry-After after 20 failed authentications', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect((await call(sandbox, { path: '/v1/balance', sign: { apiSecret: 'wrong' } })).status).toBe(401);
    }
    const res = await call(sandbox, { path: '/v1/balance' });
    expect(res.status).toBe(429);
    expect(res.json.code).toBe('TOO_MANY_AUTH_FAILURES');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('does not lock out an address after 19 failures', async () => {
    for (let i = 0; i < 19; i += 1) await call(sandbox, { path: '/v1/balance', sign: { apiSecret: 'wrong' } });
    expect((await call(sandbox, { path: '/v1/balance' })).status).toBe(200);
  });

  it('signs a POST body whose hash the sandbox checks (positive control)', async () => {
    const res = await postJson(sandbox, '/v1/energy/quotes', quoteBody());
    expect(res.status).toBe(200);
  });
});
