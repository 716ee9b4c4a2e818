/**
 * --max-spend's rule over a ledger file: what fits under the rolling ceiling on the server's clock (the run's
 * own measure, never the orders' stamps), each request held before it leaves, a refund giving its price
 * back, a 404 kept counted, and what a refusal says. Expected figures and texts are literals.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order, QuoteResponse } from '../../../src/client/types.js';
import { ApiError } from '../../../src/domain/errors.js';
import type { Ceiling, Purchase, SpendHold } from '../../../src/ensure/ensure-types.js';
import { newItem } from '../../../src/ensure/item.js';
import { needId } from '../../../src/ensure/need-id.js';
import { SpendCeiling } from '../../../src/ensure/spend-ceiling.js';
import { accountLedger, budgetLedger } from '../../../src/journal/spend-ledger.js';
import { FileSpendLedger, spendLedgerPath } from '../../../src/state/folder/spend-ledger-file.js';
import { journalRecord, MemoryJournal } from '../../helpers/memory-journal.js';
import { sampleOrder } from '../../helpers/sample-order.js';
import { fakeServerClock, type FakeServerClock } from '../../helpers/fake-clock.js';

const A = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
const HOUR = 3_600_000;
const T = Date.UTC(2026, 10, 27, 12);
const KEY = 'sha256:0000000000000000';
const ORIGIN = 'https://api.energy.test';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-ceiling-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The API's orders by id, read back by the recheck; a missing one is a 404. */
class Orders {
  readonly byId = new Map<string, Order>();
  reads = 0;
  getOrder = async (id: string): Promise<Order> => {
    this.reads += 1;
    const order = this.byId.get(id);
    if (order === undefined) throw new ApiError(404, `No order with id "${id}".`, undefined);
    return order;
  };
}

let anchors = 0;
function purchase(total: string, address = A): Purchase {
  anchors += 1;
  return {
    item: { ...newItem(address, 65_000, 0), to_buy: 65_000, total_trx: total },
    quote: { total_trx: total } as QuoteResponse,
    need: { anchor: { periodStartMs: anchors }, windowStartMs: 0, listedSinceMs: undefined },
  };
}

interface World {
  ceiling: SpendCeiling;
  ledger: FileSpendLedger;
  journal: MemoryJournal;
  notes: string[];
}

function world(limit: Ceiling, options: { ledger?: string; origin?: string; hostNowMs?: () => number } = {}): World {
  const name = options.ledger ?? accountLedger(KEY);
  const ledger = new FileSpendLedger(spendLedgerPath(dir, name), name);
  const journal = new MemoryJournal();
  const notes: string[] = [];
  const scope = { origin: options.origin ?? ORIGIN, keyId: KEY };
  const ceiling = new SpendCeiling({
    ceiling: limit,
    open: async () => ({ ledger, journal: Object.assign(journal, { scope }) }),
    note: (line) => notes.push(line),
    ...(options.hostNowMs !== undefined && { hostNowMs: options.hostNowMs }),
  });
  return { ceiling, ledger, journal, notes };
}

const limit = (trx: string, windowMs: number, text: string): Ceiling => ({ trx, windowMs, text });

/** One purchase through the ceiling as ensure places it: reserved, sent under its id, answered with an order. */
async function place(w: World, clock: FakeServerClock, orders: Orders, p: Purchase, fields: Partial<Order> = {}) {
  const reservation = await w.ceiling.reserve([p], clock, orders);
  const hold = reservation.holdOf(p);
  if (hold === undefined) return undefined;
  expect(await hold.sending(needId(p.item.address, p.need.anchor))).toBeUndefined();
  const order = sampleOrder({
    id: `order-${anchors}`,
    client_request_id: needId(p.item.address, p.need.anchor),
    address: p.item.address,
    total_trx: p.quote.total_trx,
    // The server's own stamps: hours off, and never used.
    created_at: Math.floor((clock.now() - 8 * HOUR) / 1000),
    ...fields,
  });
  orders.byId.set(order.id, order);
  await hold.ordered(order);
  return order;
}

describe('SpendCeiling', () => {
  it('counts the window only: two 3.9 orders at T leave 0.2 of 8/1h; at T+1h+1s 8.000000 is left and a 3.9 purchase fits', async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    const orders = new Orders();
    await place(w, clock, orders, purchase('3.900000'));
    await place(w, clock, orders, purchase('3.900000'));
    expect(await w.ceiling.leftNow(T)).toBe('0.200000');
    const refused = purchase('3.900000');
    expect((await w.ceiling.reserve([refused], clock, orders)).purchases).toEqual([]);
    expect(refused.item.reason).toBe('spend_limit');
    clock.set(T + HOUR + 1_000);
    expect(await w.ceiling.leftNow(T + HOUR + 1_000)).toBe('8.000000');
    const fits = purchase('3.900000');
    expect((await w.ceiling.reserve([fits], clock, orders)).purchases).toEqual([fits]);
  });

  it("files an order at the run's server time when its answer came, whatever its stamps (8 h behind here)", async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    const orders = new Orders();
    await place(w, clock, orders, purchase('3.900000'), { created_at: Math.floor((T - 2 * HOUR) / 1000) });
    await place(w, clock, orders, purchase('3.900000'), { created_at: Math.floor((T + 8 * HOUR) / 1000) });
    // The gauge reads the run's server clock as it advances; the host's time passed in (0 here) is not used.
    clock.set(T + HOUR - 1_000);
    expect(await w.ceiling.leftNow(0)).toBe('0.200000');
    clock.set(T + HOUR + 1);
    expect(await w.ceiling.leftNow(0)).toBe('8.000000');
  });

  it('gives back the price of an order that ended undelivered without a failure object: the next 3.9 fits', async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    const orders = new Orders();
    const kept = await place(w, clock, orders, purchase('3.900000'));
    const lost = await place(w, clock, orders, purchase('3.900000'));
    orders.byId.set(kept!.id, { ...kept!, status: 'active', delivery_final: true });
    orders.byId.set(lost!.id, {
      ...lost!,
      status: 'cancelled',
      lifecycle_final: true,
      delivery_final: false,
      failure: null,
    });
    const next = purchase('3.900000');
    expect((await w.ceiling.reserve([next], clock, orders)).purchases).toEqual([next]);
    expect(next.item.error).toBeNull();
    expect(await w.ceiling.leftNow(T)).toBe('0.200000');
  });

  it("keeps the gauge on the server clock (an hour ahead of the host): what left the server's window does not count, what is in it does", async () => {
    const host = T;
    const w = world(limit('8.000000', HOUR, '8/1h'));
    // Placed 90 minutes before the server's now (inside the host's window, not the server's), then 30 minutes
    // before; the run's clock then advances to the server's now, and the host's time stays where it was.
    const clock = fakeServerClock(host + HOUR - 90 * 60_000, HOUR);
    await place(w, clock, new Orders(), purchase('3.900000'));
    clock.set(host + HOUR);
    expect(await w.ceiling.leftNow(host)).toBe('8.000000');
    clock.set(host + HOUR - 30 * 60_000);
    await place(w, clock, new Orders(), purchase('3.900000'));
    clock.set(host + HOUR);
    expect(await w.ceiling.leftNow(host)).toBe('4.100000');
  });

  it('reads the server clock for the gauge when no run of it has measured one yet (a service that has not ordered)', async () => {
    const host = T;
    const w = world(limit('8.000000', HOUR, '8/1h'));
    await place(w, fakeServerClock(host + HOUR - 90 * 60_000, HOUR), new Orders(), purchase('3.900000'));
    const name = accountLedger(KEY);
    const reads: number[] = [];
    const fresh = new SpendCeiling({
      ceiling: limit('8.000000', HOUR, '8/1h'),
      open: async () => ({
        ledger: new FileSpendLedger(spendLedgerPath(dir, name), name),
        journal: Object.assign(w.journal, { scope: { origin: ORIGIN, keyId: KEY } }),
      }),
      note: () => undefined,
      serverClock: async () => {
        reads.push(1);
        return fakeServerClock(host + HOUR, HOUR);
      },
    });
    expect(await fresh.leftNow(host)).toBe('8.000000');
    expect(await fresh.leftNow(host)).toBe('8.000000');
    expect(reads).toHaveLength(1);
  });

  it('refuses in the order given, saying the price, what is left after the earlier ones, and when the oldest leaves', async () => {
    const w = world(limit('12.000000', HOUR, '12/1h'));
    const clock = fakeServerClock(T);
    const orders = new Orders();
    await place(w, clock, orders, purchase('1.000000'));
    clock.set(T + 60_000);
    const four = [1, 2, 3, 4].map(() => purchase('3.700000'));
    const reservation = await w.ceiling.reserve(four, clock, orders);
    expect(reservation.purchases).toEqual(four.slice(0, 2));
    expect(four[2]!.item.error).toEqual({
      exit_code: 5,
      message:
        "3.700000 TRX would pass --max-spend 12/1h: 3.600000 TRX left of 12.000000; the oldest order counted leaves the window at 2026-11-27T13:00:00Z on the API's clock: not ordered",
    });
    expect(four[3]!.item.reason).toBe('spend_limit');
  });

  it('holds an order exactly equal to what is left (8.0 of 8/1h after nothing; 0.1 after 7.9), and refuses one micro-TRX more', async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    const orders = new Orders();
    await place(w, clock, orders, purchase('7.900000'));
    const over = purchase('0.100001');
    expect((await w.ceiling.reserve([over], clock, orders)).purchases).toEqual([]);
    const exact = purchase('0.100000');
    expect((await w.ceiling.reserve([exact], clock, orders)).purchases).toEqual([exact]);
    const whole = world(limit('8.000000', HOUR, '8/1h'), { ledger: budgetLedger('whole') });
    const all = purchase('8.000000');
    expect((await whole.ceiling.reserve([all], clock, orders)).purchases).toEqual([all]);
  });

  it('answers whether prices would fit without holding them (a dry run): the same refusals, and the room stays', async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    await place(w, clock, new Orders(), purchase('3.900000'));
    const asked = [purchase('4.200000'), purchase('0.300000')];
    const answers = await w.ceiling.fits(asked, clock);
    expect(answers[0]?.message).toMatch(/^4\.200000 TRX would pass --max-spend 8\/1h: 4\.100000 TRX left/);
    expect(answers[1]).toBeUndefined();
    expect(await w.ceiling.leftNow(T)).toBe('4.100000');
    expect(readFileSync(w.ledger.path, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it("rechecks only this key's orders in a --budget shared with another key: the other's is never read, never settled", async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'), { ledger: budgetLedger('shared') });
    const clock = fakeServerClock(T);
    // Another key's run placed 7.9 under the same budget.
    await w.ledger.update(T, () => ({
      events: [
        {
          kind: 'hold',
          id: 'theirs',
          holder: 'x',
          address: A,
          total_trx: '7.900000',
          at_ms: T,
          key_id: 'sha256:other',
          origin: ORIGIN,
        },
        { kind: 'order', id: 'theirs', order_id: 'their-order', address: A, total_trx: '7.900000', at_ms: T },
      ],
      value: undefined,
    }));
    const orders = new Orders();
    const p = purchase('3.900000');
    expect((await w.ceiling.reserve([p], clock, orders)).purchases).toEqual([]);
    // This key cannot read it (a 404 here): it is not asked for, and not settled unknown.
    expect(orders.reads).toBe(0);
    expect((await w.ledger.read()).entries.get('theirs')!.final).toBeUndefined();
  });

  it('rechecks through a 5xx without settling: the order stays open, and a later reading that finds it refunded gives its price back', async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    const orders = new Orders();
    const lost = await place(w, clock, orders, purchase('7.900000'));
    const failing = {
      reads: 0,
      getOrder: async () => {
        failing.reads += 1;
        throw new ApiError(503, 'Service Unavailable', undefined);
      },
    };
    const error = await w.ceiling.reserve([purchase('3.900000')], clock, failing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(failing.reads).toBe(1);
    expect((await w.ledger.read()).entries.get(lost!.client_request_id)!.final).toBeUndefined();
    orders.byId.set(lost!.id, { ...lost!, status: 'cancelled', lifecycle_final: true, delivery_final: false });
    const next = purchase('3.900000');
    expect((await w.ceiling.reserve([next], clock, orders)).purchases).toEqual([next]);
  });

  it("settles on the server's clock as the last run measured it (the host's is 2 h ahead here), never the host's own", async () => {
    const host = T + 2 * HOUR;
    const w = world(limit('8.000000', HOUR, '8/1h'), { hostNowMs: () => host });
    const clock = fakeServerClock(T, -2 * HOUR);
    const order = await place(w, clock, new Orders(), purchase('3.900000'));
    await w.ceiling.settle([{ order: order!, state: 'kept' }]);
    const lines = readFileSync(w.ledger.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ kind: 'final', state: 'kept', at_ms: T });
  });

  it("settles on the run's clock when the host clock steps 2 h back after the reserve (the step moves nothing)", async () => {
    let host = T;
    const w = world(limit('8.000000', HOUR, '8/1h'), { hostNowMs: () => host });
    const clock = fakeServerClock(T);
    const order = await place(w, clock, new Orders(), purchase('3.900000'));
    host -= 2 * HOUR;
    clock.set(T + 1_000);
    await w.ceiling.settle([{ order: order!, state: 'kept' }]);
    const last = readFileSync(w.ledger.path, 'utf8').trim().split('\n').at(-1)!;
    expect(JSON.parse(last)).toMatchObject({ kind: 'final', state: 'kept', at_ms: T + 1_000 });
    expect(await w.ceiling.leftNow(host)).toBe('4.100000');
  });

  it('says an order above the whole ceiling is more than it allows in any window, naming the budget', async () => {
    const w = world(limit('1.000000', HOUR, '1/1h'), { ledger: budgetLedger('payouts') });
    const p = purchase('3.900000');
    await w.ceiling.reserve([p], fakeServerClock(T), new Orders());
    expect(p.item.error!.message).toBe(
      '3.900000 TRX is more than --max-spend 1/1h (budget payouts) allows in any window (1.000000 TRX): not ordered',
    );
  });

  it('settles an order the API answers 404 for as unknown, kept counted, with a note: the purchase fails spend_limit, no error', async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    const orders = new Orders();
    const gone = await place(w, clock, orders, purchase('3.900000'));
    orders.byId.delete(gone!.id);
    await place(w, clock, orders, purchase('3.900000'));
    const p = purchase('3.900000');
    expect((await w.ceiling.reserve([p], clock, orders)).purchases).toEqual([]);
    expect(p.item.reason).toBe('spend_limit');
    expect(w.notes).toEqual([
      `energy: the API answered 404 for order ${gone!.id}: it stays counted under --max-spend until it leaves the window`,
    ]);
    // Settled: not read again.
    const reads = orders.reads;
    await w.ceiling.reserve([purchase('3.900000')], clock, orders);
    expect(orders.reads).toBe(reads + 1);
  });

  it('holds a request sent under another id afresh, checked; gives back the holds of what was never sent', async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    const [first, second] = [purchase('3.900000'), purchase('3.900000')];
    const reservation = await w.ceiling.reserve([first!, second!], clock, new Orders());
    expect(reservation.purchases).toHaveLength(2);
    const hold = reservation.holdOf(first!) as SpendHold;
    expect(await hold.sending(needId(A, first!.need.anchor))).toBeUndefined();
    // Its id was an earlier need's order: nothing placed under it; the next id is held again.
    await hold.nothing();
    expect(await hold.sending('ensure-next')).toBeUndefined();
    await reservation.releaseUnsent();
    expect(await w.ceiling.leftNow(T)).toBe('4.100000');
    // Another run takes 4.2 meanwhile: once this hold goes, another id of it is refused, not sent.
    await w.ledger.update(T, () => ({
      events: [
        {
          kind: 'hold',
          id: 'other',
          holder: 'x',
          address: A,
          total_trx: '4.200000',
          at_ms: T,
          key_id: KEY,
          origin: ORIGIN,
        },
      ],
      value: undefined,
    }));
    await hold.nothing();
    expect((await hold.sending('ensure-third'))?.message).toMatch(
      /^3\.900000 TRX would pass --max-spend 8\/1h: 3\.800000 TRX left/,
    );
  });

  it('keeps the hold of a request whose outcome is unknown, drops that of one refused', async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    // Two prices, so that keeping the wrong one shows: 3.9 pending (kept), 2.0 refused (dropped).
    const [a, b] = [purchase('3.900000'), purchase('2.000000')];
    const reservation = await w.ceiling.reserve([a!, b!], clock, new Orders());
    for (const p of [a!, b!]) await reservation.holdOf(p)!.sending(needId(A, p.need.anchor));
    await reservation.holdOf(a!)!.failed(journalRecord('a', '{}', null));
    await reservation
      .holdOf(b!)!
      .failed(journalRecord('b', '{}', { kind: 'refused', at: '', status: 409, code: null }));
    expect(await w.ceiling.leftNow(T)).toBe('4.100000');
  });

  it('resends a pending request only where it fits; files the order a settled journal record has and the ledger lacks', async () => {
    const w = world(limit('8.000000', HOUR, '8/1h'));
    const clock = fakeServerClock(T);
    const body = (total: string) =>
      JSON.stringify({
        client_request_id: 'x',
        address: A,
        energy: 65_000,
        duration_hours: 1,
        expected_total_trx: total,
      });
    const first = await w.ceiling.holdResend(journalRecord('ensure-r1', body('3.900000')), clock);
    expect(first).not.toBeInstanceOf(Error);
    const second = await w.ceiling.holdResend(journalRecord('ensure-r2', body('4.200000')), clock);
    expect((second as Error).message).toMatch(/^4\.200000 TRX would pass --max-spend 8\/1h: 4\.100000 TRX left/);
    // Killed after its answer was journaled, before its ledger line: the next run files it, at its own now.
    w.journal.records.set(
      'ensure-r1',
      journalRecord('ensure-r1', body('3.900000'), { kind: 'created', at: '', order_id: 'o-r1' }),
    );
    clock.set(T + 30 * 60_000);
    await w.ceiling.reserve([purchase('1.000000')], clock, new Orders());
    expect((await w.ledger.read()).entries.get('ensure-r1')!.order).toEqual({
      order_id: 'o-r1',
      total_trx: '3.900000',
      at_ms: T + 30 * 60_000,
    });
  });

  it("files the order of a record journaled under another spelling of the URL: the journal is the key's", async () => {
    const clock = fakeServerClock(T);
    const numeric = world(limit('8.000000', HOUR, '8/1h'), { origin: 'http://127.0.0.1:8080' });
    const p = purchase('3.900000');
    const reservation = await numeric.ceiling.reserve([p], clock, new Orders());
    const id = needId(A, p.need.anchor);
    expect(await reservation.holdOf(p)!.sending(id)).toBeUndefined();
    // Killed after the answer was journaled (by the key, whatever the spelling), before its ledger line.
    const named = world(limit('8.000000', HOUR, '8/1h'), { origin: 'http://localhost:8080' });
    const body = JSON.stringify({
      client_request_id: id,
      address: A,
      energy: 65_000,
      duration_hours: 1,
      expected_total_trx: '3.900000',
    });
    named.journal.records.set(id, journalRecord(id, body, { kind: 'created', at: '', order_id: 'o-spelled' }));
    clock.set(T + 60_000);
    await named.ceiling.reserve([purchase('0.100000')], clock, new Orders());
    expect((await named.ledger.read()).entries.get(id)!.order).toEqual({
      order_id: 'o-spelled',
      total_trx: '3.900000',
      at_ms: T + 60_000,
    });
  });

  it('says once that one key is used under two spellings of the base URL: one ledger counts both', async () => {
    const clock = fakeServerClock(T);
    const first = world(limit('8.000000', HOUR, '8/1h'), { origin: 'http://127.0.0.1:8080' });
    await place(first, clock, new Orders(), purchase('3.900000'));
    const second = world(limit('8.000000', HOUR, '8/1h'), { origin: 'http://localhost:8080' });
    const p = purchase('3.900000');
    expect((await second.ceiling.reserve([p], clock, new Orders())).purchases).toEqual([p]);
    expect(await second.ceiling.leftNow(T)).toBe('0.200000');
    await second.ceiling.reserve([purchase('0.100000')], clock, new Orders());
    expect(second.notes).toEqual([
      `energy: API key ${KEY} is used at http://localhost:8080 and at http://127.0.0.1:8080: one --max-spend ledger (account ${KEY}) counts them all (a ledger follows the key, not the URL's spelling)`,
    ]);
  });
});
