/**
 * Reading the order list without taking its order or its uniqueness on trust (issue 32). Spec, "Order
 * list response": items and next_cursor only; the list's order and whether an order is listed once are
 * not given.
 */
import { describe, expect, it } from 'vitest';
import { ListReading, MAX_PAGES_WITHOUT_NEW } from '../../../src/client/list-reading.js';
import type { Order, OrderList } from '../../../src/client/types.js';
import { findRecentOrders } from '../../../src/ordering/find-recent.js';
import { spendReport } from '../../../src/reports/spend.js';
import { jsonReply, type Handler } from '../../helpers/http-server.js';
import { sampleOrder } from '../../helpers/sample-order.js';
import { scriptedApiForSuite } from '../../helpers/scripted-api.js';

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
      'energy: the server listed 2 orders more than once; each order is counted once, but a list that repeats orders may also have left some out: what was read from it may be incomplete',
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

describe('a reading of a window stops only after a whole page lies before it', () => {
  it('pageBefore: a page with one order in the window is not before it; a page wholly older is', () => {
    const reading = new ListReading();
    for (const order of [at('a', 100), at('b', 10)]) reading.take(order);
    reading.endPage(2);
    expect(reading.pageBefore(50_000)).toBe(false);
    for (const order of [at('c', 9), at('d', 8)]) reading.take(order);
    reading.endPage(2);
    expect(reading.pageBefore(50_000)).toBe(true);
    // An empty page proves nothing.
    reading.endPage(0);
    expect(reading.pageBefore(50_000)).toBe(false);
  });

  it('pageBefore: a page whose newest order is exactly at the bound is inside the window, not before it', () => {
    const reading = new ListReading();
    // created_at 50 s is 50,000 ms: the bound itself is inside the window (created_at >= bound).
    for (const order of [at('a', 50), at('b', 40)]) reading.take(order);
    reading.endPage(2);
    expect(reading.pageBefore(50_000)).toBe(false);
    for (const order of [at('c', 39), at('d', 38)]) reading.take(order);
    reading.endPage(2);
    expect(reading.pageBefore(50_000)).toBe(true);
  });

  it('pageBefore: never once the list turned out not to be newest first', () => {
    const reading = new ListReading();
    for (const order of [at('a', 10), at('b', 20)]) reading.take(order);
    reading.endPage(2);
    for (const order of [at('c', 5)]) reading.take(order);
    reading.endPage(1);
    expect(reading.pageBefore(50_000)).toBe(false);
  });
});

/** Pages served in turn at GET /v1/energy/orders, each with a fresh cursor but the last. */
function pagesReply(pages: Order[][]): Handler[] {
  return pages.map((items, index) =>
    jsonReply(200, { items, next_cursor: index < pages.length - 1 ? `c${index + 1}` : null }),
  );
}

describe('spend over the server (a node:http server on 127.0.0.1): what the list does not promise', () => {
  const api = scriptedApiForSuite();
  const since = Date.UTC(2026, 10, 23, 10) / 1000;
  /** Ids are UUIDs on the wire: the test's name for an order is kept in client_request_id. */
  const uuids = new Map<string, string>();
  const priced = (name: string, createdAt: number, total: string): Order => {
    if (!uuids.has(name)) uuids.set(name, `00000000-0000-4000-8000-${String(uuids.size).padStart(12, '0')}`);
    return { ...at(uuids.get(name)!, createdAt), client_request_id: name, total_trx: total };
  };

  it('--since: newest orders, then a block of backdated ones, then recent ones: all 7 in the window counted', async () => {
    const month = 30 * 86_400;
    api.server.script(
      ...pagesReply([
        [
          priced('n1', since + 600, '1.000000'),
          priced('b1', since - month, '9.000000'),
          priced('b2', since - month, '9.000000'),
        ],
        [
          priced('b3', since - month, '9.000000'),
          priced('r1', since + 500, '2.000000'),
          priced('r2', since + 400, '3.000000'),
        ],
        [
          priced('r3', since + 300, '4.000000'),
          priced('r4', since + 200, '5.000000'),
          priced('r5', since + 100, '6.000000'),
        ],
        [
          priced('r6', since + 50, '7.000000'),
          priced('o1', since - 100, '9.000000'),
          priced('o2', since - 200, '9.000000'),
        ],
      ]),
    );
    const notes: string[] = [];
    const report = await spendReport(api.client().orderPages(), { sinceMs: since * 1000 }, (line) => notes.push(line));
    expect(report).toMatchObject({ orders: 7, total_trx: '28.000000' });
    expect(api.server.seen).toHaveLength(4);
    expect(notes).toContain(
      "energy: the server's order list is not newest first (created_at rises down it): it was read whole",
    );
  });

  it('--since over a newest-first list: the page reaching past the window is read, then one whole page before it, no more', async () => {
    api.server.script(
      ...pagesReply([
        [priced('a', since + 20, '1.000000'), priced('b', since + 10, '2.000000')],
        [priced('c', since + 5, '3.000000'), priced('d', since - 5, '9.000000')],
        [priced('e', since - 10, '9.000000'), priced('f', since - 20, '9.000000')],
        [priced('g', since - 30, '9.000000')],
      ]),
    );
    const report = await spendReport(api.client().orderPages(), { sinceMs: since * 1000 });
    expect(report).toMatchObject({ orders: 3, total_trx: '6.000000' });
    expect(api.server.seen).toHaveLength(3);
  });

  it('one page served again and again under fresh cursors: an error (exit 7) after exactly 4 GETs', async () => {
    const page = [priced('a', since + 20, '1.000000'), priced('b', since + 10, '2.000000')];
    api.server.script(...pagesReply(Array.from({ length: 40 }, () => page)));
    await expect(spendReport(api.client().orderPages(), {})).rejects.toMatchObject({
      exitCode: 7,
      message: expect.stringMatching(/served 3 pages in a row of orders already listed/),
    });
    expect(api.server.seen).toHaveLength(4);
  });

  it('empty pages are not repeats: [], [], [], then orders: all read, no error', async () => {
    api.server.script(
      ...pagesReply([[], [], [], [priced('a', since + 20, '1.000000'), priced('b', since + 10, '2.000000')]]),
    );
    const report = await spendReport(api.client().orderPages(), {});
    expect(report).toMatchObject({ orders: 2, total_trx: '3.000000' });
    expect(api.server.seen).toHaveLength(4);
  });
});
