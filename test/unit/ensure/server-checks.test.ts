/**
 * What the server did not promise, checked before ensure acts on it (issue 32): an order still on its way
 * ends the walk over derived ids, whatever its age.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/domain/errors.js';
import { needId, periodStart } from '../../../src/ensure/need-id.js';
import { freshAddress } from '../../helpers/e2e.js';
import { FakeApi, FakeNode, HOUR_MS, Host, fakeOrder } from './fakes.js';

const X = freshAddress(32_001);

function world(): { api: FakeApi; node: FakeNode; host: Host } {
  const api = new FakeApi();
  const node = new FakeNode();
  return { api, node, host: new Host(api, node) };
}

describe('an order on its way ends the walk', () => {
  it('a second host that cannot see X past 1,001 newer orders stops at the pending order: no second rental', async () => {
    const { api, host } = world();
    // Host A bought O1 (none <period>), O1 expired, A bought O2 (after O1), O2 is pending.
    const o1 = fakeOrder({
      address: X,
      client_request_id: needId(X, { periodStartMs: periodStart(X, api.nowMs) }),
      created_at: api.nowMs - 3 * HOUR_MS,
    });
    const o2 = fakeOrder({
      address: X,
      client_request_id: needId(X, { orderId: o1.id }),
      status: 'pending',
      lifecycle_final: false,
      delivery_final: false,
      created_at: api.nowMs - HOUR_MS,
      updated_at: api.nowMs - HOUR_MS,
    });
    const others = Array.from({ length: 1001 }, (_, i) =>
      fakeOrder({
        address: freshAddress(32_100 + (i % 5)),
        client_request_id: `other-${i}`,
        created_at: api.nowMs - 60_000,
      }),
    );
    api.orders = [...others, o2, o1];
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight_elsewhere', in_flight: 65_000, bought: null });
    expect(api.ordersTo(X)).toHaveLength(2);
    // O1's id, then O2's: nothing after it.
    expect(api.posted.map((body) => JSON.parse(body).client_request_id)).toEqual([
      o1.client_request_id,
      o2.client_request_id,
    ]);
  });
});

describe('a list that is not newest first', () => {
  it("anchors on the address's newest order in the window, wherever the list puts it", async () => {
    const { api, host } = world();
    const older = fakeOrder({ address: X, client_request_id: 'older', created_at: api.nowMs - 3 * HOUR_MS });
    const newer = fakeOrder({ address: X, client_request_id: 'newer', created_at: api.nowMs - 2 * HOUR_MS });
    api.orders = [older, newer];
    const [item] = await host.run({ addresses: [X] });
    expect(item!.reason).toBe('bought');
    expect(item!.bought!.client_request_id).toBe(needId(X, { orderId: newer.id }));
  });

  it('longer than the 1,000 orders ensure reads: exit 7, nothing bought, rather than a guess', async () => {
    const { api, host } = world();
    api.orders = Array.from({ length: 1001 }, (_, i) =>
      fakeOrder({
        address: freshAddress(32_500),
        client_request_id: `oldest-first-${i}`,
        created_at: api.nowMs - 3 * HOUR_MS + i * 1000,
      }),
    );
    await expect(host.run({ addresses: [X] })).rejects.toMatchObject({
      exitCode: 7,
      message: expect.stringMatching(/not newest first \(created_at rises down it\)/),
    });
    expect(api.posted).toHaveLength(0);
  });
});

describe("a 409's order is the need's only if it matches", () => {
  it('another host took the derived id for a 24 h rental: a 1 h run fails the item, naming that order', async () => {
    const { api, host } = world();
    // Placed between this run's reading of the list and its order: the 409's order, for other hours.
    api.onPost = (sent, server) => {
      if (server.orders.length > 0) return undefined;
      server.place({ ...sent, duration_hours: 24 });
      return new ApiError(409, 'POST /v1/energy/orders failed: IDEMPOTENCY_MISMATCH', undefined);
    };
    const [item] = await host.run({ addresses: [X] });
    expect(item!.reason).toBe('failed');
    expect(item!.error!.message).toMatch(/is already order \S+ for \S+, 65,000 energy, 24 h: not this request's/);
    expect(api.ordersTo(X)).toHaveLength(1);
  });

  it('sized otherwise by another host (64,000), same address and hours: in flight elsewhere, as before', async () => {
    const { api, host } = world();
    api.onPost = (sent, server) => {
      if (server.orders.length > 0) return undefined;
      server.place({ ...sent, energy: 64_000 });
      return new ApiError(409, 'POST /v1/energy/orders failed: IDEMPOTENCY_MISMATCH', undefined);
    };
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight_elsewhere', in_flight: 64_000 });
  });
});

describe('an order of this machine the server answers 404 for', () => {
  it('fails that address alone (exit 4), naming the journal record and what to do; the others go on', async () => {
    const { api, host } = world();
    const Z = freshAddress(32_700);
    const first = await host.run({ addresses: [X, Z] });
    expect(first.map((item) => item.reason)).toEqual(['bought', 'bought']);
    const lost = first[0]!.bought!;
    // The server no longer knows X's order (it is not in the list, and GET by id is a 404).
    api.orders = api.orders.filter((order) => order.id !== lost.id);
    const [x, z] = await host.run({ addresses: [X, Z] });
    expect(x!.reason).toBe('failed');
    expect(x!.error!.exit_code).toBe(4);
    expect(x!.error!.message).toContain(
      `order ${lost.id} (journal record ${lost.client_request_id}, for ${X}) is not known to the server (404)`,
    );
    expect(x!.error!.message).toContain(`\`energy order get ${lost.id}\``);
    expect(z).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(api.ordersTo(X)).toHaveLength(0);
  });
});

describe('ensure --dry-run and the balance', () => {
  it('says a real run would be refused when the balance cannot pay the sum (2 × 2.600000 > 4.000000)', async () => {
    const { api, host } = world();
    api.available = '4.000000';
    const items = await host.run({ addresses: [X, freshAddress(32_800)], dryRun: true });
    expect(items.map((item) => item.reason)).toEqual(['would_buy', 'would_buy']);
    expect(host.notes).toContain(
      'energy: needs 5.200000 TRX, 4.000000 available: a real run would be refused for the balance (exit 5), nothing placed',
    );
    expect(api.posted).toHaveLength(0);
  });

  it('with --place-what-fits, how many of the orders the balance covers', async () => {
    const { api, host } = world();
    api.available = '4.000000';
    await host.run({ addresses: [X, freshAddress(32_800)], dryRun: true, placeWhatFits: true });
    expect(host.notes).toContain(
      'energy: the balance (4.000000 TRX available) covers 1 of these 2 orders: a real run would place those, in the order given, and fail the others',
    );
  });

  it('says nothing of the balance when it pays', async () => {
    const { host } = world();
    await host.run({ addresses: [X, freshAddress(32_800)], dryRun: true });
    expect(host.notes.join('\n')).not.toMatch(/balance/);
  });
});
