import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { testAddress } from './addresses.js';
import { orderRequest } from './fixtures.js';
import { call, postJson } from './signed-request.js';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ bodyLimitBytes: 1024 });
});
afterEach(() => sandbox.close());

const order = orderRequest;

describe('sandbox request checks', () => {
  it('lists every field problem at once under VALIDATION_FAILED', async () => {
    const res = await postJson(sandbox, '/v1/energy/orders', {
      client_request_id: 'bad id!',
      address: 'TNotAnAddress',
      energy: 1500,
      duration_hours: 2,
      expected_total_trx: '3.7',
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_FAILED');
    expect(res.json.field).toBe('client_request_id');
    expect(res.json.errors.map((e: { code: string; field: string }) => [e.field, e.code])).toEqual([
      ['client_request_id', 'INVALID_CLIENT_REQUEST_ID'],
      ['address', 'INVALID_ADDRESS'],
      ['energy', 'ENERGY_NOT_MULTIPLE'],
      ['duration_hours', 'DURATION_NOT_ALLOWED'],
      ['expected_total_trx', 'INVALID_AMOUNT'],
    ]);
  });

  it('reports missing and null fields as REQUIRED', async () => {
    const res = await postJson(sandbox, '/v1/energy/quotes', { address: null, energy: 65_000 });
    expect(res.json.errors).toEqual([
      expect.objectContaining({ code: 'REQUIRED', field: 'address' }),
      expect.objectContaining({ code: 'REQUIRED', field: 'duration_hours' }),
    ]);
  });

  it('refuses energy above max_energy with ENERGY_OUT_OF_RANGE', async () => {
    const res = await postJson(sandbox, '/v1/energy/quotes', {
      address: testAddress(1),
      energy: 5_001_000,
      duration_hours: 1,
    });
    expect(res.json.errors).toEqual([expect.objectContaining({ code: 'ENERGY_OUT_OF_RANGE', field: 'energy' })]);
  });

  it('refuses energy sent as a string', async () => {
    const res = await postJson(sandbox, '/v1/energy/quotes', {
      address: testAddress(1),
      energy: '65000',
      duration_hours: 1,
    });
    expect(res.json.errors).toEqual([expect.objectContaining({ field: 'energy' })]);
  });

  it('refuses an unknown property and names it', async () => {
    const res = await postJson(sandbox, '/v1/energy/quotes', {
      address: testAddress(1),
      energy: 65_000,
      duration_hours: 1,
      duration_minutes: 60,
    });
    expect(res.status).toBe(400);
    expect(res.json.field).toBe('duration_minutes');
    expect(res.json.errors).toEqual([expect.objectContaining({ code: 'UNKNOWN_PROPERTY', field: 'duration_minutes' })]);
  });

  it('refuses a body that is not a JSON object', async () => {
    const res = await postJson(sandbox, '/v1/energy/quotes', [1, 2]);
    expect(res.status).toBe(400);
    expect(res.json.errors[0].code).toBe('INVALID_BODY');
  });

  it('answers MALFORMED_JSON for invalid JSON', async () => {
    const res = await call(sandbox, { method: 'POST', path: '/v1/energy/quotes', body: '{"address":' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('MALFORMED_JSON');
  });

  it('answers 413 for a body above the limit and commits nothing', async () => {
    const res = await postJson(sandbox, '/v1/energy/orders', order({ client_request_id: 'x'.repeat(2000) }));
    expect(res.status).toBe(413);
    expect(res.json.code).toBe('PAYLOAD_TOO_LARGE');
    expect(sandbox.orders()).toHaveLength(0);
  });

  it('answers 413 for a chunked body above the limit (no Content-Length)', async () => {
    const res = await call(sandbox, {
      method: 'POST',
      path: '/v1/energy/quotes',
      body: Buffer.alloc(4096, 0x20),
      headers: { 'transfer-encoding': 'chunked' },
    });
    expect(res.status).toBe(413);
  });

  it('answers 415 for a POST without Content-Type: application/json', async () => {
    const res = await postJson(
      sandbox,
      '/v1/energy/quotes',
      { address: testAddress(1) },
      { contentType: 'text/plain' },
    );
    expect(res.status).toBe(415);
    expect(res.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts media type parameters such as charset', async () => {
    const body = { address: testAddress(1), energy: 65_000, duration_hours: 1 };
    const res = await postJson(sandbox, '/v1/energy/quotes', body, { contentType: 'application/json; charset=utf-8' });
    expect(res.status).toBe(200);
  });

  it('answers 404 Problem Details for an unknown path', async () => {
    const res = await call(sandbox, { path: '/v1/nothing' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.json.code).toBe('NOT_FOUND');
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const res = await call(sandbox, { method: 'DELETE', path: '/v1/balance' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });

  it('answers 404 ORDER_NOT_FOUND for an unknown and for a malformed order id', async () => {
    const unknown = await call(sandbox, { path: '/v1/energy/orders/00000000-0000-4000-8000-000000000000' });
    const malformed = await call(sandbox, { path: '/v1/energy/orders/not-a-uuid' });
    expect([unknown.status, unknown.json.code]).toEqual([404, 'ORDER_NOT_FOUND']);
    expect([malformed.status, malformed.json.code]).toEqual([404, 'ORDER_NOT_FOUND']);
  });

  it('refuses list limits outside 1..100 or not integer text, naming the field', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=1.5', '?limit=01', '?limit=', '?limit=abc']) {
      const res = await call(sandbox, { path: '/v1/energy/orders', query });
      expect(res.status, query).toBe(400);
      expect(res.json.field, query).toBe('limit');
    }
  });

  it('refuses a cursor it did not issue', async () => {
    const res = await call(sandbox, { path: '/v1/energy/orders', query: '?cursor=garbage' });
    expect(res.status).toBe(400);
    expect(res.json.field).toBe('cursor');
  });

  it('sends success bodies as application/json', async () => {
    const res = await call(sandbox, { path: '/v1/energy/options' });
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json).toEqual({
      energy_per_portion: 1000,
      max_energy: 5_000_000,
      duration_hours: [1, '3', 6, '24', 72, 168],
      intake_enabled: true,
    });
  });
});
