/**
 * What ensure counts of its own orders that the order list no longer reaches (its newest 1,000 orders read),
 * followed by id on the server's clock, and how the journal carries a need's anchor past that part of the list
 * (issues 39 item 3 and 41, ensure/in-flight.ts). Counted at the fake server: orders placed, POSTs sent.
 */
import { describe, expect, it } from 'vitest';
import { orderRequestBody } from '../../../src/client/client.js';
import { ApiError } from '../../../src/domain/errors.js';
import { needId, periodStart, type Anchor } from '../../../src/ensure/need-id.js';
import { freshAddress } from '../../helpers/e2e.js';
import { journalRecord } from '../../helpers/memory-journal.js';
import { FakeApi, FakeNode, HOUR_MS, Host, fakeOrder } from './fakes.js';

const X = freshAddress(41_001);
const MINUTE_MS = 60_000;

/** `count` orders to other addresses, newer than anything else: X's own are past the part of the list read. */
function busy(api: FakeApi, count = 1000): void {
  api.orders.unshift(
    ...Array.from({ length: count }, (_, i) =>
      fakeOrder({
        address: freshAddress(41_100 + (i % 5)),
        client_request_id: `busy-${i}`,
        created_at: api.nowMs - 1000 - i,
      }),
    ),
  );
}

/** The host's journal says it placed `orderId` for X under `id`, journaled `agoMs` before the server's now. */
function journaled(host: Host, api: FakeApi, id: string, orderId: string, agoMs: number): void {
  const body = orderRequestBody({
    client_request_id: id,
    address: X,
    energy: 65_000,
    duration_hours: 1,
    expected_total_trx: '2.600000',
  });
  const at = new Date(api.nowMs - agoMs).toISOString();
  host.journal.records.set(id, journalRecord(id, body, { kind: 'created', at, order_id: orderId }, at));
}

describe("this host's orders past the part of the list read", () => {
  it('delivered 5 minutes ago and lasting, the node showing 0: not_on_chain, nothing bought', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    const order = fakeOrder({
      address: X,
      client_request_id: 'own-1',
      status: 'active',
      lifecycle_final: false,
      delivery_final: true,
      created_at: api.nowMs - 10 * MINUTE_MS,
      updated_at: api.nowMs - 5 * MINUTE_MS,
    });
    api.orders = [order];
    journaled(host, api, 'own-1', order.id, 10 * MINUTE_MS);
    busy(api);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'not_on_chain' });
    expect(item!.error!.message).toContain(`order ${order.id} delivered 65,000 energy to ${X}`);
    expect(api.posted).toHaveLength(0);
  });

  it("delivered 10 s ago by the server's clock, on a host 10 minutes ahead: still on its way, nothing bought", async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode(), 10 * MINUTE_MS);
    const order = fakeOrder({
      address: X,
      client_request_id: 'own-2',
      status: 'active',
      lifecycle_final: false,
      delivery_final: true,
      created_at: api.nowMs - MINUTE_MS,
      updated_at: api.nowMs - 10_000,
    });
    api.orders = [order];
    journaled(host, api, 'own-2', order.id, MINUTE_MS - 10 * MINUTE_MS);
    busy(api);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(api.posted).toHaveLength(0);
  });

  it('the server answers 500 when one is followed: the run fails with it, not as an order the server does not know', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    const order = fakeOrder({ address: X, client_request_id: 'own-3', created_at: api.nowMs - HOUR_MS });
    api.orders = [order];
    journaled(host, api, 'own-3', order.id, HOUR_MS);
    busy(api);
    api.getOrder = async () => {
      throw new ApiError(500, 'the server failed', undefined);
    };
    const failure = await host.run({ addresses: [X] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(500);
    expect(String((failure as Error).message)).not.toContain('not known to the server');
    expect(api.posted).toHaveLength(0);
  });
});

describe('following bounded by what can still be on its way', () => {
  it('a new process, 15 one-hour orders of X in its journal an hour apart, past the list read: it follows only the one still in its term (1 GET, not 15), and forgets what it knew final once that leaves its term', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    for (let n = 0; n < 15; n += 1) {
      const ago = (n + 0.5) * HOUR_MS;
      const order = fakeOrder({
        address: X,
        client_request_id: `own-term-${n}`,
        status: 'completed',
        lifecycle_final: true,
        delivery_final: true,
        created_at: api.nowMs - ago,
        updated_at: api.nowMs - ago,
      });
      api.orders.push(order);
      journaled(host, api, `own-term-${n}`, order.id, ago);
    }
    busy(api);
    const gets: string[] = [];
    const getOrder = api.getOrder.bind(api);
    api.getOrder = async (id: string) => {
      gets.push(id);
      return getOrder(id);
    };
    await host.run({ addresses: [X] });
    expect(gets).toEqual([api.orders.find((order) => order.client_request_id === 'own-term-0')!.id]);
    expect(host.knownFinal.size).toBe(1);
    // An hour on, that one is past its term too: nothing followed, nothing kept.
    api.nowMs += HOUR_MS;
    await host.run({ addresses: [X] });
    expect(gets).toHaveLength(1);
    expect(host.knownFinal.size).toBe(0);
  });
});

describe('an order under a derived id older than the part of the list read', () => {
  it("another host's active order (delivered long ago, lasting) answered an earlier need: the next id, a new order", async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    const earlier = fakeOrder({
      address: X,
      client_request_id: needId(X, { periodStartMs: periodStart(X, api.nowMs) }),
      status: 'active',
      lifecycle_final: false,
      delivery_final: true,
      created_at: api.nowMs - 3 * HOUR_MS,
      updated_at: api.nowMs - 3 * HOUR_MS,
    });
    api.orders = [earlier];
    busy(api);
    const [item] = await host.run({ addresses: [X] });
    expect(item!.reason).toBe('bought');
    expect(item!.bought!.client_request_id).toBe(needId(X, { orderId: earlier.id }));
    expect(api.ordersTo(X)).toHaveLength(2);
  });
});

describe('the journal carries the anchor', () => {
  it('12 earlier needs of X in its period behind 1,000 newer orders: the journal walks to the 13th id, one POST, bought', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    let anchor: Anchor = { periodStartMs: periodStart(X, api.nowMs) };
    for (let need = 0; need < 12; need += 1) {
      const id = needId(X, anchor);
      const order = fakeOrder({ address: X, client_request_id: id, created_at: api.nowMs - (12 - need) * 60_000 });
      api.orders.unshift(order);
      journaled(host, api, id, order.id, (12 - need) * 60_000);
      anchor = { orderId: order.id };
    }
    busy(api);
    const [item] = await host.run({ addresses: [X] });
    expect(item!.reason).toBe('bought');
    expect(item!.bought!.client_request_id).toBe(needId(X, anchor));
    expect(api.posted).toHaveLength(1);
    expect(api.ordersTo(X)).toHaveLength(13);
  });
});
