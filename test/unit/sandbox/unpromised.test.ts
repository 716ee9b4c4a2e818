/**
 * The sandbox as a server that keeps within the spec where the spec is silent, but not the way a client
 * might hope (issue 32): the list oldest first, a page repeated under a fresh cursor, a wild /v1/time, and
 * order stamps ahead of the clock /v1/time reads.
 */
import { describe, expect, it } from 'vitest';
import { orderRequest, useSandbox } from './fixtures.js';
import { call, postJson } from './signed-request.js';

const start = useSandbox();

type Listed = { client_request_id: string; created_at: number; updated_at: number };
const ids = (items: Listed[]): string[] => items.map((order) => order.client_request_id);

describe('options the spec leaves open', () => {
  it('listOrder oldest-first: the list starts at the oldest order and pages on to the newest', async () => {
    const s = await start({ seedOrders: 3, listOrder: 'oldest-first' });
    const first = (await call(s, { path: '/v1/energy/orders', query: '?limit=2' })).json;
    expect(ids(first.items)).toEqual(['seed-0', 'seed-1']);
    const rest = (await call(s, { path: '/v1/energy/orders', query: `?limit=2&cursor=${first.next_cursor}` })).json;
    expect(ids(rest.items)).toEqual(['seed-2']);
    expect(rest.next_cursor).toBeNull();
  });

  it('repeatFirstPage: the first page comes again under a fresh cursor, then the rest', async () => {
    const s = await start({ seedOrders: 3, repeatFirstPage: true });
    const first = (await call(s, { path: '/v1/energy/orders', query: '?limit=2' })).json;
    const again = (await call(s, { path: '/v1/energy/orders', query: `?limit=2&cursor=${first.next_cursor}` })).json;
    expect(ids(again.items)).toEqual(['seed-2', 'seed-1']);
    expect(again.next_cursor).not.toBe(first.next_cursor);
    const rest = (await call(s, { path: '/v1/energy/orders', query: `?limit=2&cursor=${again.next_cursor}` })).json;
    expect(ids(rest.items)).toEqual(['seed-0']);
  });

  it('timeAnswer: GET /v1/time answers it; the signature window keeps the real clock', async () => {
    const s = await start({ timeAnswer: -5 });
    expect((await call(s, { path: '/v1/time' })).json).toEqual({ unix_time: -5 });
    expect((await call(s, { path: '/v1/balance' })).status).toBe(200);
  });

  it('stampsAheadSeconds: every order is stamped that far ahead of /v1/time', async () => {
    const s = await start({ stampsAheadSeconds: 28_800 });
    const placed = await postJson(s, '/v1/energy/orders', orderRequest());
    const now = (await call(s, { path: '/v1/time' })).json.unix_time as number;
    const stamped = placed.json as Listed;
    // Placed a moment before the time was read: 28,800 s ahead, give or take that moment.
    expect(stamped.created_at - now).toBeGreaterThanOrEqual(28_798);
    expect(stamped.created_at - now).toBeLessThanOrEqual(28_800);
    const listed = (await call(s, { path: '/v1/energy/orders' })).json.items[0] as Listed;
    expect(listed.created_at).toBe(stamped.created_at);
  });

  it('refuses a listOrder it does not know', async () => {
    await expect(start({ listOrder: 'sideways' as 'oldest-first' })).rejects.toThrow(/listOrder/);
  });
});
