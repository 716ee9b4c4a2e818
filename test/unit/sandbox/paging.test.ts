import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { testAddress } from './addresses.js';
import { call, postJson } from './signed-request.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function allPages(s: Sandbox, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = `?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const res = await call(s, { path: '/v1/energy/orders', query });
    expect(res.status).toBe(200);
    ids.push(...res.json.items.map((o: { id: string }) => o.id));
    cursor = res.json.next_cursor;
    pages += 1;
  } while (cursor !== null);
  return { ids, pages };
}

describe('sandbox order list', () => {
  it('pages through seeded orders newest first, ending with next_cursor null', async () => {
    sandbox = await startSandbox({ seedOrders: 45 });
    const { ids, pages } = await allPages(sandbox, 20);
    expect(pages).toBe(3);
    expect(ids).toEqual(sandbox.orders().map((o) => o.id));
    expect(new Set(ids).size).toBe(45);
  });

  it('seeds delivered, expired orders in descending creation time', async () => {
    sandbox = await startSandbox({ seedOrders: 5 });
    const items = (await call(sandbox, { path: '/v1/energy/orders' })).json.items;
    expect(
      items.every((o: { status: string; lifecycle_final: boolean }) => o.status === 'expired' && o.lifecycle_final),
    ).toBe(true);
    const created = items.map((o: { created_at: number }) => o.created_at);
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('uses a default page size of 20', async () => {
    sandbox = await startSandbox({ seedOrders: 25 });
    const res = await call(sandbox, { path: '/v1/energy/orders' });
    expect(res.json.items).toHaveLength(20);
    expect(res.json.next_cursor).toEqual(expect.any(String));
  });

  it('keeps a cursor stable when new orders arrive', async () => {
    sandbox = await startSandbox({ seedOrders: 10 });
    const first = (await call(sandbox, { path: '/v1/energy/orders', query: '?limit=4' })).json;
    await postJson(sandbox, '/v1/energy/orders', {
      client_request_id: 'new',
      address: testAddress(2),
      energy: 65_000,
      duration_hours: 1,
      expected_total_trx: '3.700000',
    });
    const query = `?limit=4&cursor=${first.next_cursor}`;
    const second = (await call(sandbox, { path: '/v1/energy/orders', query })).json;
    expect(second.items.map((o: { id: string }) => o.id)).toEqual(
      sandbox
        .orders()
        .slice(5, 9)
        .map((o) => o.id),
    );
  });

  it('finds a seeded order by its id', async () => {
    sandbox = await startSandbox({ seedOrders: 30 });
    const listed = sandbox.orders()[17];
    const res = await call(sandbox, { path: `/v1/energy/orders/${listed?.id}` });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(listed);
  });

  it('returns an empty list with next_cursor null when there are no orders', async () => {
    sandbox = await startSandbox();
    expect((await call(sandbox, { path: '/v1/energy/orders' })).json).toEqual({ items: [], next_cursor: null });
  });

  it('seeds 100,000 orders in under a second and pages deep into them quickly', async () => {
    const started = performance.now();
    sandbox = await startSandbox({ seedOrders: 100_000 });
    expect(performance.now() - started).toBeLessThan(1000);
    let cursor = '';
    const pageStarted = performance.now();
    for (let i = 0; i < 50; i += 1) {
      const res = await call(sandbox, { path: '/v1/energy/orders', query: `?limit=100${cursor}` });
      cursor = `&cursor=${res.json.next_cursor}`;
    }
    expect(performance.now() - pageStarted).toBeLessThan(2000);
  });
});
