/** The service's own orders followed to final: spent or refunded, and an address whose deliveries fail backs off 1, 2, 4 … cycles. */
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/client/types.js';
import { MAX_HOLD_CYCLES, PlacedOrders } from '../../../src/service/placed-orders.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const failedOrder = (id: string): Order =>
  sampleOrder({
    id,
    address: 'TA',
    status: 'failed',
    delivery_final: true,
    lifecycle_final: true,
    failure: { code: 'DELEGATION_FAILED', message: 'no' },
  });

/** Cycles 1..n: an order placed whenever the address is not held back, found failed at the next cycle. */
async function orderCycles(placed: PlacedOrders, cycles: number): Promise<number[]> {
  const client = { getOrder: async (id: string) => failedOrder(id) };
  const ordered: number[] = [];
  for (let cycle = 1; cycle <= cycles; cycle += 1) {
    placed.begin(cycle);
    await placed.settle(client);
    if (placed.holdBack('TA') === undefined) {
      ordered.push(cycle);
      placed.placed([
        {
          ...failedOrder(`o${cycle}`),
          status: 'pending',
          delivery_final: false,
          lifecycle_final: false,
          failure: null,
        },
      ]);
    }
  }
  return ordered;
}

describe('PlacedOrders', () => {
  it('waits 1, 2, 4, 8 … cycles after each failed delivery in a row, capped', async () => {
    const ordered = await orderCycles(new PlacedOrders(), 60);
    // Each failure is found the cycle after its order; that cycle and the next 2^(n-1) place nothing.
    expect(ordered).toEqual([1, 4, 8, 14, 24, 42]);
    expect(MAX_HOLD_CYCLES).toBe(32);
  });

  it('a delivery that succeeds resets the back-off and is spent; a failed one says why and until when', async () => {
    const placed = new PlacedOrders();
    placed.begin(1);
    placed.placed([failedOrder('bad')]);
    placed.begin(2);
    const [settled] = await placed.settle({ getOrder: async () => failedOrder('never') });
    expect(settled).toMatchObject({ kept: false, streak: 1, nextOrderCycle: 4 });
    expect(placed.holdBack('TA')?.message).toBe(
      'order bad to TA failed at delivery (DELEGATION_FAILED; its price went back to the balance), 1 in a row: no order to TA before cycle 4',
    );
    expect(placed.holdBack('TB')).toBeUndefined();
    const good = sampleOrder({
      id: 'good',
      address: 'TA',
      status: 'active',
      delivery_final: true,
      lifecycle_final: false,
    });
    placed.placed([good]);
    placed.begin(3);
    expect(await placed.settle({ getOrder: async () => good })).toEqual([{ order: good, kept: true }]);
    expect(placed.holdBack('TA')).toBeUndefined();
  });
});
