/**
 * `ensure` decides on what every host shares, not on its own view (issue 22): the server's clock, every
 * page of the order list, a delivery the node does not show yet, an account busier than the part of the
 * list that is read. Hosts are real processes with their own state folders, their clocks shifted by a
 * preload (test/fixtures/shift-clock.cjs); the server is the sandbox, with a page cap or a lagging node
 * where a real one may have them. Counted at the server: orders per address, requests.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import type { CliResult } from '../helpers/cli.js';
import { freshAddress, signedCall, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { shiftedClockEnv } from '../helpers/shifted-clock.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json, type World } from '../helpers/world.js';

const HOUR_MS = 3_600_000;

interface Item {
  address: string;
  in_flight: number;
  reason: string;
  bought: Order | null;
}
const items = (result: CliResult) => json<{ items: Item[] }>(result).items;

/** A host: its own state folder, its clock `shiftMs` off the server's. */
function host(world: World, shiftMs = 0): (args: string[]) => Promise<CliResult> {
  const stateDir = mkdtempSync(join(tmpdir(), 'energy-host-'));
  return (args) =>
    world.run(['ensure', ...args], {
      env: {
        ENERGY_TRON_NODE: world.sandbox.url,
        ENERGY_STATE_DIR: stateDir,
        ...shiftedClockEnv(shiftMs),
      },
    });
}

/** 1,000 energy to `to`, `count` times, each its own order: another client's traffic on the account. */
async function otherOrders(world: World, to: string, count: number, tag: string): Promise<void> {
  // Activated already: the price stays the quoted one while the first of these orders are delivered.
  world.sandbox.seedTronAccount(to, {});
  const before = world.sandbox.orders().length;
  const quote = await signedCall(world, 'POST', '/v1/energy/quotes', { address: to, energy: 1000, duration_hours: 1 });
  for (let start = 0; start < count; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - start) }, (_, i) =>
        signedCall(world, 'POST', '/v1/energy/orders', {
          client_request_id: `${tag}-${start + i}`,
          address: to,
          energy: 1000,
          duration_hours: 1,
          expected_total_trx: quote.json.total_trx,
        }),
      ),
    );
  }
  expect(world.sandbox.orders().length - before).toBe(count);
}

describe('fast deliveries, short hours', () => {
  // Orders deliver after 300 ms and an "hour" lasts 1.5 s: a need comes back soon after it was met.
  const world = worldForSuite({
    deliverAfterMs: 300,
    hourMs: 1_500,
    rateLimit: false,
    startingBalance: '100000.000000',
  });
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
  const orderPosts = () => world.sandbox.requestCount('/v1/energy/orders', 'POST');

  it('two hosts whose clocks are 25 h apart, deciding at the same moment, buy one order per address', async () => {
    const addresses = Array.from({ length: 10 }, (_, i) => freshAddress(22_100 + i));
    // Quotes slowed: both hosts have read the order list (and derived their ids) before any order exists.
    world.sandbox.inject({ kind: 'delay', ms: 4000, times: 8, match: { path: '/v1/energy/quotes' } });
    const args = [...addresses, '--energy', '65000', '--hours', '1', '--yes', '--json'];
    const results = await Promise.all([host(world, 0)(args), host(world, 25 * HOUR_MS)(args)]);
    world.sandbox.clearFaults();
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    for (const address of addresses) expect(ordersTo(address), address).toHaveLength(1);
    const reasons = results.flatMap(items).map((item) => item.reason);
    expect(reasons.filter((reason) => reason === 'bought')).toHaveLength(10);
  }, 60_000);

  it('a TRON node 6 s behind the API: a run right after the delivery counts it in flight, no second order', async () => {
    const address = freshAddress(22_200);
    world.sandbox.setTronLag(6000);
    try {
      const run = host(world);
      const first = await run(rentalArgs(address, '--yes', '--json'));
      expect(items(first)[0]!.reason).toBe('bought');
      await until('the API says delivered', () => ordersTo(address)[0]!.delivery_final, 20_000);
      const again = await run(rentalArgs(address, '--yes', '--json'));
      expect(again.code, again.stderr).toBe(0);
      expect(items(again)[0]).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
      expect(ordersTo(address)).toHaveLength(1);
    } finally {
      world.sandbox.setTronLag(0);
    }
  }, 60_000);

  it('a busy account: after 1,001 newer orders, a new need of the address gets a new order', async () => {
    const address = freshAddress(22_300);
    const run = host(world);
    const first = await run(rentalArgs(address, '--yes', '--json'));
    expect(items(first)[0]!.reason).toBe('bought');
    await until('the order expired', () => ordersTo(address)[0]!.lifecycle_final, 20_000);
    await otherOrders(world, freshAddress(22_301), 1001, 'busy');
    const again = await run(rentalArgs(address, '--yes', '--json'));
    expect(again.code, again.stderr).toBe(0);
    const [item] = items(again);
    expect(item!.reason).toBe('bought');
    expect(item!.bought!.id).not.toBe(items(first)[0]!.bought!.id);
    expect(ordersTo(address)).toHaveLength(2);
  }, 120_000);

  it('six needs in a row on a host 72 h ahead buy six orders, one request each', async () => {
    const address = freshAddress(22_400);
    const run = host(world, 72 * HOUR_MS);
    const before = orderPosts();
    for (let need = 1; need <= 6; need += 1) {
      const result = await run(rentalArgs(address, '--yes', '--json'));
      expect(result.code, `need ${need}: ${result.stderr}`).toBe(0);
      expect(items(result)[0]!.reason, `need ${need}`).toBe('bought');
      await until('the order expired', () => ordersTo(address).every((order) => order.lifecycle_final), 20_000);
    }
    expect(ordersTo(address)).toHaveLength(6);
    expect(orderPosts() - before).toBe(6);
  }, 90_000);

  it('intake disabled: exit 5 saying so, before any quote or order', async () => {
    const address = freshAddress(22_500);
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const posts = orderPosts();
    world.sandbox.setIntake(false);
    try {
      const result = await host(world)(rentalArgs(address, '--yes'));
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(
        /intake of new orders is disabled \(GET \/v1\/energy\/options says intake_enabled: false\): no order was placed/,
      );
    } finally {
      world.sandbox.setIntake(true);
    }
    expect(world.sandbox.requestCount('/v1/energy/quotes')).toBe(quotes);
    expect(orderPosts()).toBe(posts);
  });
});

describe('a server whose order list pages are capped at 50', () => {
  // Slow delivery: the first host's orders stay on their way while the second host looks.
  const world = worldForSuite({ deliverAfterMs: 120_000, rateLimit: false, startingBalance: '100000.000000' });

  it('with 25 other orders in between, a second host counts all 20 orders in flight and buys none', async () => {
    world.sandbox.setMaxPageSize(50);
    const addresses = Array.from({ length: 20 }, (_, i) => freshAddress(22_600 + i));
    const args = [...addresses, '--energy', '65000', '--hours', '1', '--yes', '--json'];
    const first = await host(world)(args);
    expect(first.code, first.stderr).toBe(0);
    await otherOrders(world, freshAddress(22_650), 25, 'between');
    const second = await host(world)([...args, '--verbose']);
    expect(second.code, second.stderr).toBe(0);
    for (const item of items(second))
      expect(item, item.address).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(world.sandbox.orders().filter((order) => addresses.includes(order.address))).toHaveLength(20);
    expect(second.stderr).toMatch(/order list read in pages of 50/);
  }, 60_000);
});
