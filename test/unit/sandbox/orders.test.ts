import { describe, expect, it } from 'vitest';
import { SANDBOX_FAILING_ADDRESS, type Sandbox } from '../../../src/sandbox/index.js';
import { checkTronAddress } from '../../../src/domain/address.js';
import { testAddress } from './addresses.js';
import { orderRequest, useSandbox } from './fixtures.js';
import { call, postJson } from './signed-request.js';

const start = useSandbox();

const order = orderRequest;
const balance = async (s: Sandbox) => (await call(s, { path: '/v1/balance' })).json;
const getOrder = async (s: Sandbox, id: string) => (await call(s, { path: `/v1/energy/orders/${id}` })).json;

describe('sandbox quotes and orders', () => {
  it('quotes with the activation fee for a new address', async () => {
    const s = await start();
    const res = await postJson(s, '/v1/energy/quotes', { address: testAddress(1), energy: 65_000, duration_hours: 24 });
    expect(res.json).toEqual({
      address: testAddress(1),
      energy: 65_000,
      duration_hours: 24,
      energy_trx: '39.000000',
      activation_trx: '1.100000',
      total_trx: '40.100000',
      can_afford: true,
    });
  });

  it('says can_afford false when the total is above the available balance', async () => {
    const s = await start({ startingBalance: '3.000000' });
    const res = await postJson(s, '/v1/energy/quotes', { address: testAddress(1), energy: 65_000, duration_hours: 1 });
    expect(res.json.can_afford).toBe(false);
  });

  it('creates an order with 201 and answers a retry of it with 200 and the same order', async () => {
    const s = await start();
    const first = await postJson(s, '/v1/energy/orders', order());
    const again = await postJson(s, '/v1/energy/orders', order());
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    expect(s.orders()).toHaveLength(1);
    expect((await balance(s)).held_trx).toBe('3.700000');
  });

  it('refuses a reused client_request_id with other parameters (IDEMPOTENCY_MISMATCH)', async () => {
    const s = await start();
    await postJson(s, '/v1/energy/orders', order());
    const res = await postJson(s, '/v1/energy/orders', order({ energy: 66_000, expected_total_trx: '3.740000' }));
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('IDEMPOTENCY_MISMATCH');
    expect(s.orders()).toHaveLength(1);
  });

  it('refuses a stale expected total with PRICE_CHANGED naming the current total', async () => {
    const s = await start();
    s.setRates({ 1: '0.000050' });
    const res = await postJson(s, '/v1/energy/orders', order());
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('PRICE_CHANGED');
    expect(res.json.detail).toContain('4.350000');
    expect(s.orders()).toHaveLength(0);
  });

  it('refuses an order above the available balance (INSUFFICIENT_BALANCE)', async () => {
    const s = await start();
    s.setBalance('3.699999');
    const res = await postJson(s, '/v1/energy/orders', order());
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('INSUFFICIENT_BALANCE');
    expect(await balance(s)).toMatchObject({ available_trx: '3.699999', held_trx: '0.000000' });
  });

  it('refuses quotes and new orders while intake is disabled', async () => {
    const s = await start();
    s.setIntake(false);
    const quote = await postJson(s, '/v1/energy/quotes', {
      address: testAddress(1),
      energy: 65_000,
      duration_hours: 1,
    });
    const created = await postJson(s, '/v1/energy/orders', order());
    expect([quote.status, quote.json.code]).toEqual([409, 'INTAKE_DISABLED']);
    expect([created.status, created.json.code]).toEqual([409, 'INTAKE_DISABLED']);
    expect((await call(s, { path: '/v1/energy/options' })).json.intake_enabled).toBe(false);
  });

  it('still answers a retry of an existing order while intake is disabled', async () => {
    const s = await start();
    await postJson(s, '/v1/energy/orders', order());
    s.setIntake(false);
    expect((await postJson(s, '/v1/energy/orders', order())).status).toBe(200);
  });

  it('holds the total at creation and spends it at delivery', async () => {
    const s = await start({ deliverAfterMs: 60_000 });
    const created = await postJson(s, '/v1/energy/orders', order());
    expect(await balance(s)).toMatchObject({ available_trx: '996.300000', held_trx: '3.700000' });
    s.advance(60_000);
    expect(await getOrder(s, created.json.id)).toMatchObject({ delivery_final: true });
    expect(await balance(s)).toMatchObject({ available_trx: '996.300000', held_trx: '0.000000' });
  });

  it('drops the activation fee once an order to the address was delivered', async () => {
    const s = await start({ deliverAfterMs: 60_000 });
    const created = await postJson(s, '/v1/energy/orders', order());
    s.advance(60_000);
    expect(await getOrder(s, created.json.id)).toMatchObject({ delivery_final: true });
    const quote = await postJson(s, '/v1/energy/quotes', {
      address: testAddress(1),
      energy: 65_000,
      duration_hours: 1,
    });
    expect(quote.json).toMatchObject({ activation_trx: null, total_trx: '2.600000' });
  });

  it('moves an order pending → delegating → active → expired with Unix-second times', async () => {
    // Each stage seen at its own sandbox time (within the 300 s signature window of the test's own clock).
    const s = await start({ deliverAfterMs: 60_000, hourMs: 60_000 });
    const created = await postJson(s, '/v1/energy/orders', order());
    expect(created.json).toMatchObject({
      status: 'pending',
      delivery_final: false,
      lifecycle_final: false,
      failure: null,
    });
    expect(Math.abs(created.json.created_at - Date.now() / 1000)).toBeLessThan(2);
    const seen: string[] = [];
    let last = created.json;
    for (const step of [0, 30_000, 30_000, 60_000]) {
      s.advance(step);
      last = await getOrder(s, created.json.id);
      seen.push(`${last.status}/${last.delivery_final}/${last.lifecycle_final}`);
    }
    expect(seen).toEqual(['pending/false/false', 'delegating/false/false', 'active/true/false', 'expired/true/true']);
    expect(last.updated_at).toBeGreaterThanOrEqual(last.created_at);
  });

  it('fails orders to SANDBOX_FAILING_ADDRESS and returns the held total', async () => {
    const s = await start({ deliverAfterMs: 60_000 });
    expect(checkTronAddress(SANDBOX_FAILING_ADDRESS)).toEqual({ ok: true });
    const created = await postJson(s, '/v1/energy/orders', order({ address: SANDBOX_FAILING_ADDRESS }));
    expect(created.status).toBe(201);
    expect((await balance(s)).held_trx).toBe('3.700000');
    s.advance(60_000);
    const done = await getOrder(s, created.json.id);
    expect(done).toMatchObject({ status: 'failed', lifecycle_final: true, failure: { code: 'DELEGATION_FAILED' } });
    expect(await balance(s)).toMatchObject({ available_trx: '1000.000000', held_trx: '0.000000' });
  });

  it('finds an order by id', async () => {
    const s = await start();
    const created = await postJson(s, '/v1/energy/orders', order());
    const res = await call(s, { path: `/v1/energy/orders/${created.json.id}` });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: created.json.id, client_request_id: 'req-1', total_trx: '3.700000' });
  });
});
