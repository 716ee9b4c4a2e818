/**
 * The cycle's offer (ensure/cycle-offer.ts, shared-offer.ts, CycleList.offer) against a shared list in memory:
 * the fleet's reader reads `GET /v1/energy/options` beside the list and publishes it with its reading; the
 * other hosts take it from that reading and read none; an offer that is missing or is not an offer, a store that
 * shares no list, or a one-shot run: read here. Counted at the fake API (options reads, list pages).
 */
import { describe, expect, it } from 'vitest';
import type { OptionsResponse, Order, OrderList } from '../../../src/client/types.js';
import { CycleList } from '../../../src/ensure/cycle-list.js';
import { cycleOffer } from '../../../src/ensure/cycle-offer.js';
import { sharedOffer } from '../../../src/ensure/shared-offer.js';
import type { ServerClock } from '../../../src/ordering/server-clock.js';
import type { ListReach, ListSnapshot, ListTurn, SharedOrderList } from '../../../src/state/shared-list.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const NOW = Date.UTC(2026, 11, 7, 9);
const EVERY_MS = 10_000;
const TWO_DAYS_MS = 172_800_000;
const OFFER: OptionsResponse = {
  energy_per_portion: 32_500,
  max_energy: 5_000_000,
  duration_hours: [1, 24],
  intake_enabled: true,
};
const STORED = { energy_per_portion: 65_000, max_energy: 650_000, duration_hours: [1, '3'], intake_enabled: true };

const LISTED: Order[] = [
  sampleOrder({
    id: '00000000-0000-4000-8000-000000000001',
    client_request_id: 'req-1',
    address: 'TA',
    created_at: NOW - 60_000,
    updated_at: NOW - 60_000,
  }),
];

/** The API: the list in one page, the offer; counts both. */
function api(failOptions = false) {
  const counts = { pages: 0, options: 0 };
  return {
    counts,
    client: {
      async *orderPages(): AsyncGenerator<OrderList> {
        counts.pages += 1;
        await Promise.resolve();
        yield { items: LISTED, next_cursor: null };
      },
      async options(): Promise<OptionsResponse> {
        counts.options += 1;
        await Promise.resolve();
        if (failOptions && counts.options === 1) throw new Error('503 on options');
        return { ...OFFER, duration_hours: [...OFFER.duration_hours] };
      },
    },
  };
}

function shared(turn: ListTurn) {
  const seen = { takes: 0, published: [] as { reach: ListReach; offer: unknown }[] };
  const list: SharedOrderList = {
    take: async () => {
      seen.takes += 1;
      return turn;
    },
    publish: async (_token, _orders, reach, offer) => {
      seen.published.push({ reach, offer });
      return true;
    },
    release: async () => undefined,
  };
  return { list, seen };
}

function snapshot(offer: unknown): ListSnapshot {
  const reach = { reachMs: NOW - TWO_DAYS_MS, complete: true, oldestReadMs: NOW - 60_000, outOfOrder: false };
  return { orders: LISTED, ageMs: 1_000, ...reach, offer };
}

const clock = (): Promise<ServerClock> => Promise.resolve({ offsetMs: 0, nowMs: () => NOW });
const TA = new Set(['TA']);

describe("a service's cycle takes the offer with the fleet's reading of the order list", () => {
  it('the reader reads the offer once, beside the list, and publishes it with its reading (reaching back from the clock)', async () => {
    const { client, counts } = api();
    const { list, seen } = shared({ kind: 'read', token: 't1' });
    const cycle = new CycleList({ shared: list, everyMs: EVERY_MS, addresses: ['TA', 'TB'] });
    expect(await cycleOffer(client, cycle, TA, clock())).toEqual(OFFER);
    const listing = await cycle.read(client, TA, NOW - 86_400_000, NOW - TWO_DAYS_MS);
    expect(listing!.orders.map((o) => o.client_request_id)).toEqual(['req-1']);
    expect(counts).toEqual({ pages: 1, options: 1 });
    expect(seen.takes).toBe(1);
    expect(seen.published).toEqual([
      {
        reach: { reachMs: NOW - TWO_DAYS_MS, complete: true, oldestReadMs: NOW - 60_000, outOfOrder: false },
        offer: OFFER,
      },
    ]);
  });

  it("another host's reading with its offer: that offer (checked, durations as integers), and no options read here", async () => {
    const { client, counts } = api();
    const { list, seen } = shared({ kind: 'snapshot', snapshot: snapshot({ ...STORED, added_later: 'x' }) });
    const cycle = new CycleList({ shared: list, everyMs: EVERY_MS });
    const offer = await cycleOffer(client, cycle, TA, clock());
    expect(offer).toMatchObject({ energy_per_portion: 65_000, max_energy: 650_000, duration_hours: [1, 3] });
    expect(offer.intake_enabled).toBe(true);
    await cycle.read(client, TA, NOW - 86_400_000, NOW - TWO_DAYS_MS);
    expect(counts).toEqual({ pages: 0, options: 0 });
    expect(seen.takes).toBe(1);
  });

  it('a reading without an offer, or with what is not one: the offer read here, the reading still used', async () => {
    for (const bad of [
      null,
      undefined,
      {},
      { ...STORED, intake_enabled: 'yes' },
      { ...STORED, max_energy: 1.5 },
      '{}',
    ]) {
      const { client, counts } = api();
      const { list } = shared({ kind: 'snapshot', snapshot: snapshot(bad) });
      const cycle = new CycleList({ shared: list, everyMs: EVERY_MS });
      expect(await cycleOffer(client, cycle, TA, clock())).toEqual(OFFER);
      await cycle.read(client, TA, NOW - 86_400_000, NOW - TWO_DAYS_MS);
      expect(counts, JSON.stringify(bad)).toEqual({ pages: 0, options: 1 });
    }
  });

  it("a cycle's claim slices: the offer read here once for all of them, where the reading's is not one", async () => {
    const { client, counts } = api();
    const { list, seen } = shared({ kind: 'snapshot', snapshot: snapshot({}) });
    const cycle = new CycleList({ shared: list, everyMs: EVERY_MS });
    for (let slice = 0; slice < 3; slice++) expect(await cycleOffer(client, cycle, TA, clock())).toEqual(OFFER);
    expect(counts).toEqual({ pages: 0, options: 1 });
    expect(seen.takes).toBe(1);
    // A failed read is not kept: the next slice reads again.
    const failing = api(true);
    const next = new CycleList({ shared: list, everyMs: EVERY_MS });
    await expect(cycleOffer(failing.client, next, TA, clock())).rejects.toThrow('503 on options');
    expect(await cycleOffer(failing.client, next, TA, clock())).toEqual(OFFER);
    expect(failing.counts.options).toBe(2);
  });

  it("the reader's offer read fails: its reading is published without one, and the offer read again for its own cycle", async () => {
    const { client, counts } = api(true);
    const { list, seen } = shared({ kind: 'read', token: 't1' });
    const cycle = new CycleList({ shared: list, everyMs: EVERY_MS });
    expect(await cycleOffer(client, cycle, TA, clock())).toEqual(OFFER);
    await cycle.read(client, TA, NOW - 86_400_000, NOW - TWO_DAYS_MS);
    expect(counts).toEqual({ pages: 1, options: 2 });
    expect(seen.published.map((p) => p.offer)).toEqual([null]);
  });

  it('a store that shares no list, and a one-shot run (no cycle list): the offer read here', async () => {
    const folder = api();
    const { list, seen } = shared({ kind: 'none' });
    expect(await cycleOffer(folder.client, new CycleList({ shared: list, everyMs: EVERY_MS }), TA, clock())).toEqual(
      OFFER,
    );
    expect(folder.counts).toEqual({ pages: 0, options: 1 });
    expect(seen.takes).toBe(1);
    const once = api();
    expect(await cycleOffer(once.client, undefined, TA, clock())).toEqual(OFFER);
    expect(once.counts).toEqual({ pages: 0, options: 1 });
  });

  it("sharedOffer: the API's shape, as tolerant (added fields kept), or undefined", () => {
    expect(sharedOffer({ ...STORED, note: 'new' })).toEqual({ ...STORED, duration_hours: [1, 3], note: 'new' });
    expect(sharedOffer({ ...STORED, duration_hours: ['one'] })).toBeUndefined();
    expect(sharedOffer([])).toBeUndefined();
  });
});
