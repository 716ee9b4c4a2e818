/**
 * A service's one reading of the order list a cycle (ensure/cycle-list.ts), against a shared list in memory:
 * who reads the API (counted in pages), what a young reading from the store gives, how long a host waits for
 * another's reading (bounded by the lease, on the monotonic clock), and that any doubt reads the list here.
 */
import { describe, expect, it } from 'vitest';
import type { Order, OrderList } from '../../../src/client/types.js';
import { CycleList, listLeaseMs, usable } from '../../../src/ensure/cycle-list.js';
import type { ListReach, ListSnapshot, ListTurn, SharedOrderList } from '../../../src/state/shared-list.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const NOW = Date.UTC(2026, 11, 7, 7);
const EVERY_MS = 10_000;

function order(i: number, address: string): Order {
  return sampleOrder({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    client_request_id: `req-${i}`,
    address,
    created_at: NOW - i * 60_000,
    updated_at: NOW - i * 60_000,
  });
}

const LISTED = [order(1, 'TA'), order(2, 'TB'), order(3, 'TA')];

/** The API's list: one page; counts the pages read. */
function api(orders: Order[] = LISTED) {
  const counts = { pages: 0 };
  return {
    counts,
    client: {
      async *orderPages(): AsyncGenerator<OrderList> {
        counts.pages += 1;
        await Promise.resolve();
        yield { items: orders, next_cursor: null };
      },
    },
  };
}

/** A shared list answering `turns` in turn (the last one again), recording what is published or released. */
function shared(...turns: (ListTurn | Error)[]) {
  const seen = { takes: 0, published: [] as { orders: readonly { id: string }[]; reach: ListReach }[], released: 0 };
  const list: SharedOrderList = {
    take: async () => {
      const turn = turns[Math.min(seen.takes, turns.length - 1)]!;
      seen.takes += 1;
      if (turn instanceof Error) throw turn;
      return turn;
    },
    publish: async (_token, orders, reach) => {
      seen.published.push({ orders, reach });
      return true;
    },
    release: async () => {
      seen.released += 1;
    },
  };
  return { list, seen };
}

function snapshot(orders: unknown[], extra: Partial<ListSnapshot> = {}): ListSnapshot {
  return {
    orders,
    ageMs: 1_000,
    reachMs: NOW - 172_800_000,
    complete: true,
    oldestReadMs: NOW,
    outOfOrder: false,
    ...extra,
  };
}

/** A clock the waits move: each pause advances it. */
function waits() {
  let now = 0;
  const paused: number[] = [];
  return {
    paused,
    sleep: async (ms: number) => {
      paused.push(ms);
      now += ms;
    },
    monotonicMs: () => now,
  };
}

const OLDEST = NOW - 86_400_000;
const REACH = NOW - 172_800_000;

describe('a cycle reads the order list once', () => {
  it("the lease's holder reads the API once, publishes the whole reading, and serves the cycle's second caller from it", async () => {
    const { client, counts } = api();
    const { list, seen } = shared({ kind: 'read', token: 't1' });
    const cycle = new CycleList({ shared: list, everyMs: EVERY_MS });
    const first = await cycle.read(client, new Set(['TA']), OLDEST, REACH);
    const second = await cycle.read(client, new Set(['TB']), OLDEST, REACH);
    expect(first!.orders.map((o) => o.client_request_id)).toEqual(['req-1', 'req-3']);
    expect(second!.orders.map((o) => o.client_request_id)).toEqual(['req-2']);
    expect(counts.pages).toBe(1);
    expect(seen.takes).toBe(1);
    expect(seen.published).toHaveLength(1);
    expect(seen.published[0]!.orders).toHaveLength(3);
    expect(seen.published[0]!.reach).toEqual({
      reachMs: REACH,
      complete: true,
      oldestReadMs: NOW - 180_000,
      outOfOrder: false,
    });
  });

  it("another host's young reading: its orders, checked, and no page read here", async () => {
    const { client, counts } = api();
    const { list } = shared({ kind: 'snapshot', snapshot: snapshot([order(7, 'TA')]) });
    const listing = await new CycleList({ shared: list, everyMs: EVERY_MS }).read(
      client,
      new Set(['TA']),
      OLDEST,
      REACH,
    );
    expect(listing!.orders.map((o) => o.client_request_id)).toEqual(['req-7']);
    expect(listing!.scan).toMatchObject({ complete: true, outOfOrder: false });
    expect(counts.pages).toBe(0);
  });

  it("the fleet's reading is asked for once a cycle, for all the service's addresses, and each caller gets its own", async () => {
    const { client, counts } = api();
    const asked: string[][] = [];
    const list: SharedOrderList = {
      take: async (addresses) => {
        asked.push([...addresses]);
        return { kind: 'snapshot', snapshot: snapshot(LISTED) };
      },
      publish: async () => true,
      release: async () => undefined,
    };
    const cycle = new CycleList({ shared: list, everyMs: EVERY_MS, addresses: ['TA', 'TB'] });
    const first = await cycle.read(client, new Set(['TA']), OLDEST, REACH);
    const second = await cycle.read(client, new Set(['TB']), OLDEST, REACH);
    const third = await cycle.read(client, new Set(['TC']), OLDEST, REACH);
    expect(first!.orders.map((o) => o.client_request_id)).toEqual(['req-1', 'req-3']);
    expect(second!.orders.map((o) => o.client_request_id)).toEqual(['req-2']);
    expect(third!.orders).toEqual([]);
    // TC is not the service's: asked for again, with the service's own.
    expect(asked).toEqual([
      ['TA', 'TB'],
      ['TC', 'TA', 'TB'],
    ]);
    expect(counts.pages).toBe(0);
  });

  it('while another host reads, waits (doubling, at most 1 s) and then takes its reading', async () => {
    const { client, counts } = api();
    const { list, seen } = shared({ kind: 'wait' }, { kind: 'wait' }, { kind: 'snapshot', snapshot: snapshot([]) });
    const clock = waits();
    const listing = await new CycleList({ shared: list, everyMs: EVERY_MS, ...clock }).read(
      client,
      new Set(['TA']),
      OLDEST,
      REACH,
    );
    expect(listing!.orders).toEqual([]);
    expect(clock.paused).toEqual([50, 100]);
    expect(seen.takes).toBe(3);
    expect(counts.pages).toBe(0);
  });

  it('a reader that never publishes is waited for one lease at most, then the list is read here (and not published)', async () => {
    const { client, counts } = api();
    const { list, seen } = shared({ kind: 'wait' });
    const clock = waits();
    const listing = await new CycleList({ shared: list, everyMs: EVERY_MS, ...clock }).read(
      client,
      new Set(['TA']),
      OLDEST,
      REACH,
    );
    expect(listing!.orders).toHaveLength(2);
    expect(counts.pages).toBe(1);
    const waited = clock.paused.reduce((sum, ms) => sum + ms, 0);
    expect(waited).toBeGreaterThanOrEqual(listLeaseMs(EVERY_MS));
    expect(waited).toBeLessThan(listLeaseMs(EVERY_MS) + 1_000);
    expect(Math.max(...clock.paused)).toBe(1_000);
    expect(seen.published).toHaveLength(0);
  });

  it('a store that cannot be used: the list is read here', async () => {
    const { client, counts } = api();
    const { list } = shared(new Error('the session was ended by the server'));
    const listing = await new CycleList({ shared: list, everyMs: EVERY_MS }).read(
      client,
      new Set(['TB']),
      OLDEST,
      REACH,
    );
    expect(listing!.orders.map((o) => o.client_request_id)).toEqual(['req-2']);
    expect(counts.pages).toBe(1);
  });

  it('a store that shares no list (the folder): undefined, every time, and nothing read', async () => {
    const { client, counts } = api();
    const { list, seen } = shared({ kind: 'none' });
    const cycle = new CycleList({ shared: list, everyMs: EVERY_MS });
    expect(await cycle.read(client, new Set(['TA']), OLDEST, REACH)).toBeUndefined();
    expect(await cycle.read(client, new Set(['TA']), OLDEST, REACH)).toBeUndefined();
    expect(seen.takes).toBe(1);
    expect(counts.pages).toBe(0);
  });

  it("a reading that does not reach the caller's window, or holds what is not an order: read here", async () => {
    for (const bad of [snapshot([order(7, 'TA')], { reachMs: OLDEST + 1 }), snapshot([{ id: 'not an order' }])]) {
      const { client, counts } = api();
      const { list } = shared({ kind: 'snapshot', snapshot: bad });
      const listing = await new CycleList({ shared: list, everyMs: EVERY_MS }).read(
        client,
        new Set(['TA']),
        OLDEST,
        REACH,
      );
      expect(listing!.orders.map((o) => o.client_request_id)).toEqual(['req-1', 'req-3']);
      expect(counts.pages).toBe(1);
    }
  });

  it('a reading that fails gives the lease back, and fails the cycle', async () => {
    const { list, seen } = shared({ kind: 'read', token: 't1' });
    const client = {
      // eslint-disable-next-line require-yield
      async *orderPages(): AsyncGenerator<OrderList> {
        throw new Error('503');
      },
    };
    await expect(
      new CycleList({ shared: list, everyMs: EVERY_MS }).read(client, new Set(['TA']), OLDEST, REACH),
    ).rejects.toThrow('503');
    expect(seen.released).toBe(1);
    expect(seen.published).toHaveLength(0);
  });

  it('usable keeps an unfinished reading unfinished, and its oldest order', () => {
    const listing = usable(snapshot([], { complete: false, oldestReadMs: NOW - 5_000, outOfOrder: true }), OLDEST);
    expect(listing!.scan).toMatchObject({ complete: false, oldestReadMs: NOW - 5_000, outOfOrder: true });
  });

  it('an order read by id is read once a cycle; a read that failed is not kept', async () => {
    const cycle = new CycleList({ shared: shared().list, everyMs: EVERY_MS });
    let reads = 0;
    const read = async () => {
      reads += 1;
      if (reads === 1) throw new Error('503');
      return LISTED[0]!;
    };
    await expect(cycle.orderById(LISTED[0]!.id, read)).rejects.toThrow('503');
    expect(await cycle.orderById(LISTED[0]!.id, read)).toBe(LISTED[0]);
    expect(await cycle.orderById(LISTED[0]!.id, read)).toBe(LISTED[0]);
    expect(reads).toBe(2);
    // The next cycle's list reads it again.
    await new CycleList({ shared: shared().list, everyMs: EVERY_MS }).orderById(LISTED[0]!.id, read);
    expect(reads).toBe(3);
  });

  it('the lease: the interval, at least 5 s and at most a minute', () => {
    expect([1_000, 10_000, 600_000].map(listLeaseMs)).toEqual([5_000, 10_000, 60_000]);
  });
});
