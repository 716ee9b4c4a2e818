/**
 * The sandbox as a shared account on a newer server: orders of other clients (`foreignOrders`) with odd ids,
 * statuses and fields of their own, and fields the spec does not name on every success body (`extraFields`).
 */
import { describe, expect, it } from 'vitest';
import { testAddress } from './addresses.js';
import { orderRequest, useSandbox } from './fixtures.js';
import { call, postJson } from './signed-request.js';

const start = useSandbox();

describe('foreignOrders', () => {
  it('lists them as the newest history, as given, final, and reads each by id', async () => {
    const s = await start({
      seedOrders: 3,
      foreignOrders: [
        { client_request_id: 'invoice 42' },
        { client_request_id: 'x', status: 'refunded', lifecycle_final: false, extra: { source: 'dashboard' } },
      ],
    });
    const list = (await call(s, { path: '/v1/energy/orders' })).json;
    expect(list.items.map((o: { client_request_id: string }) => o.client_request_id)).toEqual([
      'x',
      'invoice 42',
      'seed-2',
      'seed-1',
      'seed-0',
    ]);
    expect(list.items[0]).toMatchObject({ status: 'refunded', lifecycle_final: false, source: 'dashboard' });
    expect(list.items[1]).toMatchObject({ status: 'expired', lifecycle_final: true, delivery_final: true });
    const one = await call(s, { path: `/v1/energy/orders/${list.items[0].id}` });
    expect(one.json).toEqual(list.items[0]);
  });

  it('hold no money, and their client_request_id is taken like any other', async () => {
    const s = await start({ foreignOrders: [{ client_request_id: 'req-1', address: testAddress(1) }] });
    expect((await call(s, { path: '/v1/balance' })).json).toMatchObject({
      available_trx: '1000.000000',
      held_trx: '0.000000',
    });
    const again = await postJson(s, '/v1/energy/orders', orderRequest({ expected_total_trx: '2.600000' }));
    expect(again.status).toBe(200);
  });

  it('refuses a bad one at start', async () => {
    await expect(start({ foreignOrders: [{ client_request_id: 'a', total_trx: '1.5' }] })).rejects.toThrow(
      /six decimals/,
    );
    await expect(start({ foreignOrders: [{ client_request_id: 'a', extra: { status: 'x' } }] })).rejects.toThrow(
      /documented field status/,
    );
  });
});

describe('extraFields', () => {
  it('are on every success body and every order in it, never on an error', async () => {
    const extra = { x_price_sun: 60 };
    const s = await start({ extraFields: extra });
    const quote = await postJson(s, '/v1/energy/quotes', {
      address: testAddress(1),
      energy: 65_000,
      duration_hours: 1,
    });
    const created = await postJson(s, '/v1/energy/orders', orderRequest());
    const bodies = [
      (await call(s, { path: '/v1/time', sign: false })).json,
      (await call(s, { path: '/v1/balance' })).json,
      (await call(s, { path: '/v1/energy/options' })).json,
      quote.json,
      created.json,
      (await call(s, { path: `/v1/energy/orders/${created.json.id}` })).json,
    ];
    const list = (await call(s, { path: '/v1/energy/orders' })).json;
    for (const body of [...bodies, list, list.items[0]]) expect(body).toMatchObject(extra);
    const missing = await call(s, { path: '/v1/energy/orders/00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
    expect(missing.json).not.toHaveProperty('x_price_sun');
  });
});
