/** The service's own orders followed to final: spent or refunded, and an address whose deliveries fail backs off 1, 2, 4 … cycles. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order, QuoteResponse } from '../../../src/client/types.js';
import { newItem } from '../../../src/ensure/item.js';
import { needId } from '../../../src/ensure/need-id.js';
import { SpendCeiling } from '../../../src/ensure/spend-ceiling.js';
import { accountLedger } from '../../../src/journal/spend-ledger.js';
import { FileSpendLedger, spendLedgerPath } from '../../../src/state/folder/spend-ledger-file.js';
import { MAX_HOLD_CYCLES, PlacedOrders } from '../../../src/service/placed-orders.js';
import { sampleOrder } from '../../helpers/sample-order.js';
import { fakeServerClock } from '../../helpers/fake-clock.js';

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
  it("files a cycle's final outcomes in one call; when it fails, they stay followed as final and are filed next cycle without being read again", async () => {
    const calls: { id: string; state: string }[][] = [];
    let failing = true;
    const ledger = {
      settle: async (outcomes: readonly { order: Order; state: 'kept' | 'refunded' }[]) => {
        calls.push(outcomes.map(({ order, state }) => ({ id: order.id, state })));
        if (failing) throw new Error('the database went away');
      },
    };
    const placed = new PlacedOrders(ledger);
    placed.begin(1);
    const open = (id: string): Order => ({ ...sampleOrder({ id }), delivery_final: false, lifecycle_final: false });
    placed.placed([open('a'), open('b'), open('c')]);
    placed.begin(2);
    let reads = 0;
    const final: Record<string, Order> = {
      a: { ...open('a'), delivery_final: true },
      b: { ...open('b'), lifecycle_final: true },
      c: open('c'),
    };
    const client = { getOrder: async (id: string) => ((reads += 1), final[id]!) };
    await expect(placed.settle(client)).rejects.toThrow('the database went away');
    expect(reads).toBe(3);
    failing = false;
    placed.begin(3);
    const settled = await placed.settle(client);
    // Only c, not final before, is read again; a and b are filed from what cycle 2 found.
    expect(reads).toBe(4);
    expect(calls).toEqual([
      [
        { id: 'a', state: 'kept' },
        { id: 'b', state: 'refunded' },
      ],
      [
        { id: 'a', state: 'kept' },
        { id: 'b', state: 'refunded' },
      ],
    ]);
    expect(settled.map((s) => [s.order.id, s.kept])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(placed.following).toBe(true);
    // Nothing final: nothing filed, not even an empty write.
    await placed.settle(client);
    expect(calls).toHaveLength(2);
  });

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

describe('PlacedOrders and the --max-spend ledger', () => {
  const HOUR = 3_600_000;
  const T = Date.UTC(2026, 10, 27, 12);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'energy-placed-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('only an order that ended undelivered (lifecycle_final without delivery_final) is refunded; a final delivery with a failure object backs off but keeps its price', async () => {
    const name = accountLedger('sha256:k');
    const ledger = new FileSpendLedger(spendLedgerPath(dir, name), name);
    const ceiling = new SpendCeiling({
      ceiling: { trx: '8.000000', windowMs: HOUR, text: '8/1h' },
      open: async () => ({
        ledger,
        journal: { scope: { origin: 'https://x', keyId: 'sha256:k' }, find: () => undefined },
      }),
      note: () => undefined,
      hostNowMs: () => T,
    });
    const clock = fakeServerClock(T);
    const placedOrders: Order[] = [];
    for (const n of [1, 2]) {
      const purchase = {
        item: { ...newItem(`T${n}`, 65_000, 0), to_buy: 65_000 },
        quote: { total_trx: '3.900000' } as QuoteResponse,
        need: { anchor: { periodStartMs: n }, windowStartMs: 0, listedSinceMs: undefined },
      };
      const reservation = await ceiling.reserve([purchase], clock, { getOrder: async () => failedOrder('x') });
      const id = needId(`T${n}`, purchase.need.anchor);
      await reservation.holdOf(purchase)!.sending(id);
      const order = sampleOrder({ id: `o${n}`, client_request_id: id, address: `T${n}`, total_trx: '3.900000' });
      await reservation.holdOf(purchase)!.ordered(order);
      placedOrders.push(order);
    }
    expect(await ceiling.leftNow(T)).toBe('0.200000');
    const placed = new PlacedOrders(ceiling);
    placed.begin(1);
    placed.placed(placedOrders);
    placed.begin(2);
    const final: Record<string, Order> = {
      o1: {
        ...placedOrders[0]!,
        status: 'failed',
        lifecycle_final: true,
        delivery_final: true,
        failure: { code: 'DELEGATION_FAILED', message: 'no' },
      },
      o2: { ...placedOrders[1]!, status: 'cancelled', lifecycle_final: true, delivery_final: false, failure: null },
    };
    const settled = await placed.settle({ getOrder: async (id) => final[id]! });
    expect(settled.map(({ kept, streak }) => ({ kept, streak }))).toEqual([
      { kept: false, streak: 1 },
      { kept: false, streak: 1 },
    ]);
    // o1's delivery is final: its price may be spent, so it stays counted; o2's comes back.
    expect(await ceiling.leftNow(T)).toBe('4.100000');
  });
});
