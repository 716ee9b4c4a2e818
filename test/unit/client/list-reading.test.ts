/**
 * Reading the order list without taking its order or its uniqueness on trust (issue 32). Spec, "Order
 * list response": items and next_cursor only; the list's order and whether an order is listed once are
 * not given.
 */
import { describe, expect, it } from 'vitest';
import { ListReading, MAX_PAGES_WITHOUT_NEW } from '../../../src/client/list-reading.js';
import type { Order, OrderList } from '../../../src/client/types.js';
import { findRecentOrders } from '../../../src/ordering/find-recent.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const at = (id: string, createdAt: number): Order => ({ ...sampleOrder(), id, created_at: createdAt });

describe('ListReading', () => {
  it('takes each id once and counts the repeats', () => {
    const reading = new ListReading();
    expect([at('a', 30), at('b', 20), at('a', 30), at('b', 20)].map((order) => reading.take(order))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(reading.repeated).toBe(2);
    expect(reading.notices()).toEqual([
      'energy: the server listed 2 orders more than once; each order is counted once',
    ]);
  });

  it('a created_at that rises down the list marks it out of order; equal stamps do not', () => {
    const falling = new ListReading();
    for (const order of [at('a', 30), at('b', 30), at('c', 10)]) falling.take(order);
    expect(falling.outOfOrder).toBe(false);
    const rising = new ListReading();
    for (const order of [at('a', 10), at('b', 30)]) rising.take(order);
    expect(rising.outOfOrder).toBe(true);
    expect(rising.oldestMs).toBe(10_000);
  });

  it(`gives up (exit 7) after ${MAX_PAGES_WITHOUT_NEW} pages in a row with nothing new`, () => {
    const reading = new ListReading();
    reading.take(at('a', 30));
    reading.endPage(1);
    for (let page = 1; page < MAX_PAGES_WITHOUT_NEW; page += 1) {
      reading.take(at('a', 30));
      reading.endPage(1);
    }
    reading.take(at('a', 30));
    expect(() => reading.endPage(1)).toThrow(expect.objectContaining({ exitCode: 7 }));
  });
});

describe('findRecentOrders (order recover, the 409 look-up) over a list served oldest first', () => {
  it('reads on past the old first page and finds the committed request on the next', async () => {
    const since = Date.UTC(2026, 10, 23, 10);
    const oldest = { ...at('o1', since / 1000 - 7200), client_request_id: 'x-1' };
    const older = { ...at('o2', since / 1000 - 3600), client_request_id: 'x-2' };
    const mine = { ...at('o3', since / 1000 + 60), client_request_id: 'mine' };
    const client = {
      async *orderPages(): AsyncGenerator<OrderList> {
        yield { items: [oldest, older], next_cursor: 'c1' };
        yield { items: [mine], next_cursor: null };
      },
    };
    // Both orders of the first page are older than the moment (less the hour of slack): a newest-first
    // reading would stop there.
    const found = await findRecentOrders(client, new Set(['mine']), since + 3_600_000);
    expect(found.get('mine')).toBe(mine);
  });
});
