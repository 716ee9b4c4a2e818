/**
 * `energy ensure` against the sandbox (API and TRON node on one port), spawned for real: it buys only the
 * rounded shortfall, never twice for one shortfall while an order is on its way, and again after expiry.
 * Every claim is counted at the server: requests, orders, their energy and totals.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { SANDBOX_FAILING_ADDRESS } from '../../src/sandbox/index.js';
import type { CliResult, RunOptions } from '../helpers/cli.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { createWorld, json, type World } from '../helpers/world.js';
import { pendingIdsOf } from '../helpers/pending.js';
import { rentalArgs } from '../helpers/rental.js';

interface Item {
  address: string;
  available: number;
  in_flight: number;
  target: number;
  bought: Order | null;
  reason: string;
  to_buy: number;
  total_trx: string | null;
  error: { exit_code: number; message: string } | null;
}
const items = (result: CliResult) => json<{ items: Item[] }>(result).items;

function runner(world: World) {
  return (args: string[], options: RunOptions = {}) =>
    world.run(['ensure', ...args], { ...options, env: { ENERGY_TRON_NODE: world.sandbox.url, ...options.env } });
}
const apiRequests = (world: World) =>
  ['/v1/energy/options', '/v1/energy/quotes', '/v1/energy/orders']
    .map((path) => world.sandbox.requestCount(path))
    .reduce((a, b) => a + b, 0);

/** Waits until the sandbox's order `id` is in the state `done` asks for. */
function untilOrder(world: World, id: string, done: (order: Order) => boolean): Promise<boolean> {
  const order = () => world.sandbox.orders().find((candidate) => candidate.id === id)!;
  return until(`order ${id} reaches the state`, () => done(order()), 15_000);
}

describe('the cron loop on one address', () => {
  // Slow delivery, a one-minute "hour": the pending window is wide enough for a re-run, the delivered energy
  // stays long enough for another on a loaded machine, and expiry is reached by moving the sandbox's clock.
  const HOLDER = freshAddress(7001);
  let world: World;
  let ensure: ReturnType<typeof runner>;
  let first: Order;
  beforeAll(async () => {
    world = await createWorld({
      deliverAfterMs: 4_000,
      hourMs: 60_000,
      tronAccounts: { [HOLDER]: { energy: 45_000 } },
    });
    ensure = runner(world);
  });
  afterAll(async () => world.close());
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

  it('with enough energy buys nothing and asks the API nothing, not even for a quote', async () => {
    const before = apiRequests(world);
    const result = await ensure([HOLDER, '--energy', '40000', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(items(result)).toEqual([
      {
        address: HOLDER,
        available: 45_000,
        in_flight: 0,
        target: 40_000,
        bought: null,
        reason: 'enough',
        to_buy: 0,
        total_trx: null,
        capped: false,
        error: null,
      },
    ]);
    expect(apiRequests(world)).toBe(before);
    expect(ordersTo(HOLDER)).toHaveLength(0);
  });

  it('with a shortfall buys exactly the shortfall rounded up to the portion', async () => {
    const result = await ensure([HOLDER, '--energy', '64500', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(0);
    const orders = ordersTo(HOLDER);
    expect(orders).toHaveLength(1);
    first = orders[0]!;
    expect(first).toMatchObject({ energy: 20_000, duration_hours: 1, total_trx: '0.800000' });
    expect(items(result)[0]).toMatchObject({
      available: 45_000,
      in_flight: 0,
      to_buy: 20_000,
      reason: 'bought',
      total_trx: '0.800000',
    });
    expect(items(result)[0]!.bought!.id).toBe(first.id);
  });

  it('run again while the order is pending buys nothing (counted in flight)', async () => {
    expect(world.sandbox.orders().find((order) => order.id === first.id)!.delivery_final).toBe(false);
    const result = await ensure([HOLDER, '--energy', '64500', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(items(result)[0]).toMatchObject({
      available: 45_000,
      in_flight: 20_000,
      to_buy: 0,
      reason: 'in_flight',
      bought: null,
    });
    expect(ordersTo(HOLDER)).toHaveLength(1);
  });

  it('a run from another machine (no journal) sees the pending order in the order list and buys nothing', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'energy-other-machine-'));
    const result = await ensure([HOLDER, '--energy', '64500', '--hours', '1', '--yes', '--json'], {
      env: { ENERGY_STATE_DIR: stateDir },
    });
    expect(result.code).toBe(0);
    expect(items(result)[0]).toMatchObject({ in_flight: 20_000, reason: 'in_flight' });
    expect(ordersTo(HOLDER)).toHaveLength(1);
  });

  it('run again after delivery buys nothing (the energy is on chain)', async () => {
    await untilOrder(world, first.id, (order) => order.delivery_final);
    const result = await ensure([HOLDER, '--energy', '64500', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(items(result)[0]).toMatchObject({ available: 65_000, in_flight: 0, reason: 'enough' });
    expect(ordersTo(HOLDER)).toHaveLength(1);
  });

  it('run again after expiry buys again', async () => {
    // An hour of 60 s on: within the 300 s a request's timestamp may be off, so nothing is signed twice.
    world.sandbox.advance(60_000);
    await untilOrder(world, first.id, (order) => order.lifecycle_final);
    const result = await ensure([HOLDER, '--energy', '64500', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(items(result)[0]).toMatchObject({ available: 45_000, to_buy: 20_000, reason: 'bought' });
    expect(ordersTo(HOLDER).map((order) => order.energy)).toEqual([20_000, 20_000]);
  });
});

describe('buying', () => {
  let world: World;
  let ensure: ReturnType<typeof runner>;
  let n = 7100;
  const next = () => freshAddress((n += 1));
  beforeAll(async () => {
    world = await createWorld();
    ensure = runner(world);
  });
  afterAll(async () => world.close());
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

  it('an unactivated address pays the activation', async () => {
    const address = next();
    const result = await ensure(rentalArgs(address, '--yes', '--json'));
    expect(result.code).toBe(0);
    expect(items(result)[0]).toMatchObject({ available: 0, to_buy: 65_000, total_trx: '3.700000', reason: 'bought' });
    expect(ordersTo(address).map((order) => order.total_trx)).toEqual(['3.700000']);
  });

  it('--dry-run quotes and buys nothing', async () => {
    const address = next();
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const result = await ensure(rentalArgs(address, '--dry-run', '--json'));
    expect(result.code).toBe(0);
    expect(items(result)[0]).toMatchObject({
      to_buy: 65_000,
      total_trx: '3.700000',
      reason: 'would_buy',
      bought: null,
    });
    expect(world.sandbox.requestCount('/v1/energy/quotes')).toBe(quotes + 1);
    expect(ordersTo(address)).toHaveLength(0);
  });

  it('without consent (no --yes, no terminal) buys nothing: exit 2', async () => {
    const [a, b] = [next(), next()];
    const orders = world.sandbox.orders().length;
    const result = await ensure([a, b, '--energy', '65000', '--hours', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not buying 2 orders for 7\.400000 TRX without consent/);
    expect(world.sandbox.orders()).toHaveLength(orders);
  });

  it('--max-total caps the sum of all orders: exit 5 and nothing bought', async () => {
    const [a, b] = [next(), next()];
    const orders = world.sandbox.orders().length;
    const result = await ensure([a, b, '--energy', '65000', '--hours', '1', '--yes', '--max-total', '7']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/the sum of the quotes 7\.400000 TRX is above --max-total 7\.000000/);
    expect(world.sandbox.orders()).toHaveLength(orders);
  });

  it('several addresses: one order each, one of them refused: exit 9, the other stands', async () => {
    const [a, b] = [next(), next()];
    world.sandbox.inject({ kind: 'status', status: 409, match: { method: 'POST', path: '/v1/energy/orders' } });
    const result = await ensure([a, b, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(9);
    const byReason = items(result)
      .map((item) => item.reason)
      .sort();
    expect(byReason).toEqual(['bought', 'failed']);
    expect(items(result).find((item) => item.reason === 'failed')!.error).toMatchObject({ exit_code: 5 });
    expect(ordersTo(a).length + ordersTo(b).length).toBe(1);
  });

  it('reads many addresses at once without a warning on stderr, and quotes each', async () => {
    const addresses = Array.from({ length: 12 }, next);
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const result = await ensure(rentalArgs(addresses, '--dry-run', '--json'));
    expect(result.code).toBe(0);
    expect(items(result).map((item) => item.address)).toEqual(addresses);
    expect(world.sandbox.requestCount('/v1/energy/quotes') - quotes).toBe(12);
    expect(result.stderr).toBe('');
  });

  it('two runs started together on one machine buy one order between them', async () => {
    const address = next();
    const args = rentalArgs(address, '--yes', '--json');
    const results = await Promise.all([ensure(args), ensure(args), ensure(args)]);
    expect(results.map((result) => result.code)).toEqual([0, 0, 0]);
    expect(ordersTo(address)).toHaveLength(1);
    const reasons = results.map((result) => items(result)[0]!.reason);
    expect(reasons.filter((reason) => reason === 'bought')).toHaveLength(1);
    // The others counted it in flight, or (delivery is quick here) saw it on chain already.
    expect(
      reasons.filter((reason) => reason !== 'bought').every((reason) => reason === 'in_flight' || reason === 'enough'),
    ).toBe(true);
  });

  it('counts a repeated address once', async () => {
    const address = next();
    const result = await ensure([address, address, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(items(result)).toHaveLength(1);
    expect(ordersTo(address)).toHaveLength(1);
  });

  it('--wait follows the order and confirms the energy on chain', async () => {
    const address = next();
    const result = await ensure(rentalArgs(address, '--yes', '--wait', '--json'));
    expect(result.code).toBe(0);
    // Before and after: the reading the purchase was based on, and the energy once it arrived.
    expect(items(result)[0]).toMatchObject({ reason: 'bought', available: 0, available_after: 65_000 });
    expect(items(result)[0]!.bought).toMatchObject({ delivery_final: true, status: 'active' });
  });

  it('--wait in the readable table shows the energy before and after delivery', async () => {
    const address = next();
    const result = await ensure(rentalArgs(address, '--yes', '--wait'));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ADDRESS\s+AVAILABLE\s+AFTER\s+IN_FLIGHT/);
    expect(result.stdout).toMatch(new RegExp(`${address}\\s+0\\s+65,000\\s`));
  });

  it('--wait on an order that fails delivery is exit 8', async () => {
    const result = await ensure(rentalArgs(SANDBOX_FAILING_ADDRESS, '--yes', '--wait', '--json'));
    expect(result.code).toBe(8);
    expect(items(result)[0]).toMatchObject({ reason: 'delivery_failed', error: { exit_code: 8 } });
  });

  it("ensure's own request with no known outcome is sent again by the next run: one order, then counted", async () => {
    const address = next();
    world.sandbox.inject({ kind: 'drop', match: { method: 'POST', path: '/v1/energy/orders' } });
    const lost = await ensure(rentalArgs(address, '--yes', '--retries', '0'));
    expect(lost.code).toBe(7);
    expect(ordersTo(address)).toHaveLength(0);
    const posts = world.sandbox.requestCount('/v1/energy/orders', 'POST');
    const again = await ensure(rentalArgs(address, '--yes', '--json'));
    expect(again.code, again.stderr).toBe(0);
    expect(items(again)[0]).toMatchObject({ in_flight: 65_000, reason: 'in_flight' });
    expect(again.stderr).toMatch(/was sent again: placed now, order/);
    // The journaled bytes, once: the server placed the order the first run could not confirm.
    expect(world.sandbox.requestCount('/v1/energy/orders', 'POST')).toBe(posts + 1);
    expect(ordersTo(address)).toHaveLength(1);
    const pending = await world.run(['order', 'pending', '--json']);
    expect(pendingIdsOf(pending)).toEqual([]);
  });

  it('an order create with no known outcome is counted in flight by ensure, which names order recover', async () => {
    const address = next();
    world.sandbox.inject({ kind: 'drop', match: { method: 'POST', path: '/v1/energy/orders' } });
    const lost = await world.run(['order', 'create', ...rentalArgs(address, '--yes', '--retries', '0')]);
    expect(lost.code).toBe(7);
    const again = await ensure(rentalArgs(address, '--yes', '--json'));
    expect(again.code).toBe(0);
    expect(items(again)[0]).toMatchObject({ in_flight: 65_000, reason: 'in_flight' });
    expect(again.stderr).toMatch(
      /no known outcome, counted as in flight; settle them with `energy --json order recover`/,
    );
    expect(ordersTo(address)).toHaveLength(0);
  });

  it('refuses a bad address before any request (exit 2)', async () => {
    const before = world.sandbox.requestCount();
    const result = await ensure(rentalArgs([next(), 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T'], '--yes'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is not a TRON address: bad checksum/);
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('a TRON node answering HTML is exit 7 and nothing is bought', async () => {
    world.sandbox.inject({
      kind: 'raw',
      status: 200,
      contentType: 'text/html',
      body: '<html></html>',
      match: { path: '/wallet/getaccount' },
    });
    const before = apiRequests(world);
    // An account that exists: only such a one is asked whether it is a contract (`{}` is no account, no contract).
    const address = next();
    world.sandbox.seedTronAccount(address, {});
    const result = await ensure(rentalArgs(address, '--yes'));
    expect(result.code).toBe(7);
    expect(apiRequests(world)).toBe(before);
  });
});
