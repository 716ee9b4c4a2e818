/**
 * The service follows the orders it placed from the order list's newest pages (issue 39 item 3): 150 orders
 * on their way cost two page reads a cycle, not 150 GETs; only an order the pages do not show is asked for
 * by id.
 */
import { describe, expect, it } from 'vitest';
import type { OrderPagesParams } from '../../../src/client/client.js';
import type { Order, OrderList } from '../../../src/client/types.js';
import { PlacedOrders } from '../../../src/service/placed-orders.js';
import { CycleList } from '../../../src/ensure/cycle-list.js';
import type { SharedOrderList } from '../../../src/state/shared-list.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const NOW = Date.UTC(2026, 10, 23, 10);

function placedOrder(i: number, state: Partial<Order> = {}): Order {
  return sampleOrder({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    address: `TA${i}`,
    status: 'pending',
    delivery_final: false,
    lifecycle_final: false,
    failure: null,
    created_at: NOW - i * 1000,
    updated_at: NOW - i * 1000,
    ...state,
  });
}

/** A server listing `orders` newest first, 100 a page; counts pages and GETs. */
function server(orders: Order[]) {
  const counts = { pages: 0, gets: 0 };
  return {
    counts,
    client: {
      getOrder: async (id: string) => {
        counts.gets += 1;
        return orders.find((order) => order.id === id) ?? placedOrder(9999, { id, delivery_final: true });
      },
      async *orderPages(_params: OrderPagesParams = {}): AsyncGenerator<OrderList> {
        for (let at = 0; at < orders.length; at += 100) {
          counts.pages += 1;
          yield { items: orders.slice(at, at + 100), next_cursor: at + 100 < orders.length ? `c${at}` : null };
        }
      },
    },
  };
}

describe('following placed orders', () => {
  it('150 orders on their way: two list pages and no GET; those the list shows delivered are settled', async () => {
    const placed = new PlacedOrders();
    placed.begin(1);
    placed.placed(Array.from({ length: 150 }, (_, i) => placedOrder(i + 1)));
    const now = Array.from({ length: 150 }, (_, i) => placedOrder(i + 1, i < 30 ? { delivery_final: true } : {}));
    const { client, counts } = server(now);
    placed.begin(2);
    const settled = await placed.settle(client);
    expect(settled).toHaveLength(30);
    expect(counts).toEqual({ pages: 2, gets: 0 });
    expect(placed.following).toBe(true);
  });

  it('an order the pages do not show is asked for by id', async () => {
    const placed = new PlacedOrders();
    placed.begin(1);
    placed.placed([placedOrder(1), placedOrder(2)]);
    const { client, counts } = server([placedOrder(1, { delivery_final: true })]);
    placed.begin(2);
    expect((await placed.settle(client)).map((s) => s.order.id)).toEqual([placedOrder(1).id, placedOrder(2).id]);
    expect(counts).toEqual({ pages: 1, gets: 1 });
  });

  it("in a fleet: settled from the fleet's young reading of the list (no page read here), by id only what it lacks", async () => {
    const placed = new PlacedOrders();
    placed.begin(1);
    placed.placed([placedOrder(1), placedOrder(2)]);
    const { client, counts } = server([
      placedOrder(1, { delivery_final: true }),
      placedOrder(2, { delivery_final: true }),
    ]);
    const asked: string[][] = [];
    const shared: SharedOrderList = {
      take: async (addresses) => {
        asked.push([...addresses]);
        const snapshot = { ageMs: 0, reachMs: 0, complete: true, oldestReadMs: NOW, outOfOrder: false };
        return { kind: 'snapshot', snapshot: { ...snapshot, orders: [placedOrder(1, { delivery_final: true })] } };
      },
      publish: async () => true,
      release: async () => undefined,
    };
    placed.begin(2);
    const settled = await placed.settle(client, new CycleList({ shared, everyMs: 60_000 }));
    expect(settled.map((s) => s.order.id)).toEqual([placedOrder(1).id, placedOrder(2).id]);
    expect(counts).toEqual({ pages: 0, gets: 1 });
    expect(asked).toEqual([['TA1', 'TA2']]);
  });
});
