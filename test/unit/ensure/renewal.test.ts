/**
 * Renewal ahead of the end (issue 45): with --renew-before, an address that stands now but holds a rental
 * ending within the lead is bought for now (reason bought, `early` naming the end); with 0, or a rental ending
 * later, nothing. Through runEnsure with the fake API and node; counts the orders the server received.
 */
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../../helpers/e2e.js';
import { availableAfter, defaultRenewBeforeMs, endingWithin } from '../../../src/ensure/renewal.js';
import { FakeApi, FakeNode, HOUR_MS, Host, fakeOrder } from './fakes.js';

const MINUTE_MS = 60_000;

/** X holds one delivered 65,000-energy, 1-hour rental that ends `endsInMs` from now. */
function heldRental(api: FakeApi, node: FakeNode, address: string, endsInMs: number) {
  const created = api.nowMs - HOUR_MS + endsInMs;
  api.orders = [
    fakeOrder({
      address,
      client_request_id: 'held',
      status: 'active',
      lifecycle_final: false,
      delivery_final: true,
      created_at: created,
      updated_at: created + 2_000,
    }),
  ];
  node.set(address, 65_000);
}

describe('--renew-before', () => {
  it('a rental ending in 90 s with a 2 m lead: bought now, early names its end', async () => {
    const X = freshAddress(45_001);
    const api = new FakeApi();
    const node = new FakeNode();
    heldRental(api, node, X, 90_000);
    // Y is short: the API is read anyway, and X's rentals in the list are looked at.
    const Y = freshAddress(45_011);
    const [item] = await new Host(api, node).run({ addresses: [X, Y], renewBeforeMs: 2 * MINUTE_MS });
    expect(item).toMatchObject({ reason: 'bought', to_buy: 65_000, error: null });
    expect(item!.early).toEqual({ reason: 'renewal', ends_at: new Date(api.nowMs + 90_000).toISOString() });
    expect(api.ordersTo(X)).toHaveLength(2);
    expect(api.posted).toHaveLength(2);
  });

  it("this host's own rental ending within the lead, every address standing: its journal opens the list, and X is renewed", async () => {
    const X = freshAddress(45_005);
    const api = new FakeApi();
    const node = new FakeNode();
    const host = new Host(api, node);
    // X is bought for by this host (journaled), then, 58.5 minutes later, stands with its rental ending in 90 s.
    const [first] = await host.run({ addresses: [X], renewBeforeMs: 0 });
    expect(first).toMatchObject({ reason: 'bought' });
    const order = api.orders[0]!;
    Object.assign(order, { status: 'active', delivery_final: true, lifecycle_final: false });
    api.nowMs += HOUR_MS - 90_000;
    node.set(X, 65_000);
    const [item] = await host.run({ addresses: [X], renewBeforeMs: 2 * MINUTE_MS });
    expect(item).toMatchObject({ reason: 'bought', to_buy: 65_000 });
    expect(item!.early?.reason).toBe('renewal');
    expect(api.ordersTo(X)).toHaveLength(2);
  });

  it('every address standing and no rental of its own in the journal: nothing bought, and the API is not asked', async () => {
    const X = freshAddress(45_006);
    const api = new FakeApi();
    const node = new FakeNode();
    heldRental(api, node, X, 90_000);
    const [item] = await new Host(api, node).run({ addresses: [X], renewBeforeMs: 2 * MINUTE_MS });
    expect(item).toMatchObject({ reason: 'enough', to_buy: 0 });
    expect(api.posted).toHaveLength(0);
  });

  it('the same rental with --renew-before 0: enough, nothing bought', async () => {
    const X = freshAddress(45_002);
    const api = new FakeApi();
    const node = new FakeNode();
    heldRental(api, node, X, 90_000);
    const [item] = await new Host(api, node).run({ addresses: [X], renewBeforeMs: 0 });
    expect(item).toMatchObject({ reason: 'enough', to_buy: 0 });
    expect(item!.early).toBeUndefined();
    expect(api.posted).toHaveLength(0);
  });

  it('a rental ending in 3 m with a 2 m lead: enough, nothing bought', async () => {
    const X = freshAddress(45_003);
    const api = new FakeApi();
    const node = new FakeNode();
    heldRental(api, node, X, 3 * MINUTE_MS);
    const [item] = await new Host(api, node).run({ addresses: [X], renewBeforeMs: 2 * MINUTE_MS });
    expect(item).toMatchObject({ reason: 'enough', to_buy: 0 });
    expect(api.posted).toHaveLength(0);
  });

  it('the dry run says it would buy, for the renewal', async () => {
    const X = freshAddress(45_004);
    const api = new FakeApi();
    const node = new FakeNode();
    heldRental(api, node, X, 60_000);
    const Y = freshAddress(45_014);
    const [item] = await new Host(api, node).run({ addresses: [X, Y], renewBeforeMs: 2 * MINUTE_MS, dryRun: true });
    expect(item).toMatchObject({ reason: 'would_buy', to_buy: 65_000 });
    expect(item!.early?.reason).toBe('renewal');
    expect(api.posted).toHaveLength(0);
  });
});

describe('renewal rules (pure)', () => {
  it('what stays available once a rental leaves: its share of the limit, as java-tron moves usage back', () => {
    const state = { address: 'X', activated: true, energy_limit: 200_000, energy_used: 100_000 };
    expect(availableAfter({ ...state, energy_available: 100_000, bandwidth_available: 0 }, 100_000)).toBe(50_000);
    expect(availableAfter({ ...state, energy_available: 100_000, bandwidth_available: 0 }, 200_000)).toBe(0);
    expect(availableAfter({ ...state, energy_available: 100_000, bandwidth_available: 0 }, 0)).toBe(100_000);
  });

  it('the default lead: none for one run; the interval and a minute, at least 2 m, at most a quarter of the rental', () => {
    expect(defaultRenewBeforeMs(undefined, 1)).toBe(0);
    expect(defaultRenewBeforeMs(60_000, 1)).toBe(120_000);
    expect(defaultRenewBeforeMs(1_000, 1)).toBe(120_000);
    expect(defaultRenewBeforeMs(5 * 60_000, 1)).toBe(6 * 60_000);
    expect(defaultRenewBeforeMs(3_600_000, 1)).toBe(15 * 60_000);
  });

  it('an order listed twice counts once; a failed or ended one not at all', () => {
    const base = { address: 'X', client_request_id: 'a', status: 'active', lifecycle_final: false };
    const now = Date.UTC(2026, 0, 1);
    const held = fakeOrder({ ...base, created_at: now - HOUR_MS + 60_000 });
    const failed = fakeOrder({ ...base, created_at: now - HOUR_MS + 60_000, failure: { code: 'X', message: 'x' } });
    const ended = fakeOrder({ ...base, created_at: now - HOUR_MS + 60_000, lifecycle_final: true });
    expect(endingWithin([held, held, failed, ended], now, 120_000)).toEqual({
      energy: 65_000,
      firstEndMs: now + 60_000,
    });
  });
});
