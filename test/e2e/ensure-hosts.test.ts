/**
 * `ensure` from several hosts at once (processes with separate state folders: no shared journal, no shared
 * lock), spawned for real: the order ids are derived from the need, so the server places one order per need
 * whoever sends it. Counted at the server: orders per address.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import type { CliResult } from '../helpers/cli.js';
import { freshAddress, signedCall } from '../helpers/e2e.js';
import { json } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';

interface Item {
  address: string;
  in_flight: number;
  reason: string;
  bought: Order | null;
  error: unknown;
}
const items = (result: CliResult) => json<{ items: Item[] }>(result).items;

// Orders deliver after 300 ms and an "hour" lasts 1.5 s: a need comes back soon after it was met.
const world = worldForSuite({ deliverAfterMs: 300, hourMs: 1_500, rateLimit: false });

/** A host: its own state folder, as another machine or container would have. */
function host(): (args: string[]) => Promise<CliResult> {
  const stateDir = mkdtempSync(join(tmpdir(), 'energy-host-'));
  return (args) =>
    world.run(['ensure', ...args], { env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: stateDir } });
}
const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

async function allExpired(addresses: readonly string[], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (addresses.some((address) => ordersTo(address).some((order) => !order.lifecycle_final))) {
    if (Date.now() > deadline) throw new Error('orders did not expire in time');
    await sleep(100);
  }
}

/**
 * Quotes slowed so that every host has read the order list (and decided) before any order exists: the
 * first round of each host's quotes (4 at once, 4 hosts) waits 5 s; orders are slowed a little too.
 */
function slowDown(): void {
  world.sandbox.inject({ kind: 'delay', ms: 5000, times: 16, match: { path: '/v1/energy/quotes' } });
  world.sandbox.inject({ kind: 'delay', ms: 200, times: 40, match: { method: 'POST', path: '/v1/energy/orders' } });
}

describe('ensure from 4 hosts at the same instant', () => {
  const addresses = Array.from({ length: 20 }, (_, i) => freshAddress(15_100 + i));
  const hosts = Array.from({ length: 4 }, host);
  const args = [...addresses, '--energy', '65000', '--hours', '1', '--yes', '--json'];

  async function allAtOnce(): Promise<CliResult[]> {
    slowDown();
    const results = await Promise.all(hosts.map((run) => run(args)));
    world.sandbox.clearFaults();
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    return results;
  }

  /**
   * Each address was bought by one host and met by the rest: at the server (`in_flight_elsewhere`, the
   * derived id's 409) when they decided before the order existed, or in the order list (`in_flight`) by a
   * host that a loaded machine started late. Most must have met it at the server, or the test proved
   * nothing about derived ids (with random ids those hosts would each have bought).
   */
  function expectOneBuyerEach(results: CliResult[]): void {
    let atServer = 0;
    for (const address of addresses) {
      const reasons = results.map((result) => items(result).find((item) => item.address === address)!.reason);
      expect(
        reasons.filter((reason) => reason === 'bought'),
        address,
      ).toEqual(['bought']);
      for (const reason of reasons.filter((reason) => reason !== 'bought')) {
        expect(['in_flight_elsewhere', 'in_flight'], address).toContain(reason);
        if (reason === 'in_flight_elsewhere') atServer++;
      }
    }
    expect(atServer).toBeGreaterThanOrEqual(addresses.length);
  }

  it('places exactly one order per address', async () => {
    const results = await allAtOnce();
    for (const address of addresses) expect(ordersTo(address), address).toHaveLength(1);
    expectOneBuyerEach(results);
    // The hosts that met another's order bought nothing and count it in flight: 65,000, or 0 when it was
    // already delivered (300 ms here) by the time a loaded machine let them look it up.
    const elsewhere = results.flatMap(items).filter((item) => item.reason === 'in_flight_elsewhere');
    for (const item of elsewhere) {
      expect(item.bought, item.address).toBeNull();
      expect([0, 65_000], item.address).toContain(item.in_flight);
    }
    expect(elsewhere.some((item) => item.in_flight === 65_000)).toBe(true);
  }, 60_000);

  it('after those orders expire, the same again places exactly one more each', async () => {
    await allExpired(addresses);
    const results = await allAtOnce();
    for (const address of addresses) expect(ordersTo(address), address).toHaveLength(2);
    expectOneBuyerEach(results);
  }, 60_000);
});

describe('hosts that size one need differently', () => {
  it('a 409 on the derived id, with the order found in the list, is in flight elsewhere: exit 0, one order', async () => {
    const address = freshAddress(15_200);
    const [a, b] = [host(), host()];
    slowDown();
    // Different targets: different amounts under one id, so the second host to send gets a 409.
    const results = await Promise.all([
      a([address, '--energy', '65000', '--hours', '1', '--yes', '--json']),
      b([address, '--energy', '66000', '--hours', '1', '--yes', '--json']),
    ]);
    world.sandbox.clearFaults();
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
    const reasons = results.map((result) => items(result)[0]!.reason).sort();
    expect(reasons).toEqual(['bought', 'in_flight_elsewhere']);
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBeGreaterThan(0);
  }, 60_000);
});

describe('in flight beyond the newest 1,000 orders', () => {
  const deep = worldForSuite({ deliverAfterMs: 120_000, rateLimit: false, startingBalance: '100000.000000' });

  it("this machine's undelivered order, pushed past the list's window by 1,000 newer ones, is still counted", async () => {
    const address = freshAddress(15_300);
    const stateDir = mkdtempSync(join(tmpdir(), 'energy-host-'));
    const run = () =>
      deep.run(['ensure', address, '--energy', '65000', '--hours', '1', '--yes', '--json'], {
        env: { ENERGY_TRON_NODE: deep.sandbox.url, ENERGY_STATE_DIR: stateDir },
      });
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    expect(items(first)[0]!.reason).toBe('bought');
    // A large batch since (from anywhere): 1,000 newer orders to another address.
    const other = freshAddress(15_301);
    const quote = await signedCall(deep, 'POST', '/v1/energy/quotes', {
      address: other,
      energy: 1000,
      duration_hours: 1,
    });
    for (let start = 0; start < 1000; start += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          signedCall(deep, 'POST', '/v1/energy/orders', {
            client_request_id: `deep-${start + i}`,
            address: other,
            energy: 1000,
            duration_hours: 1,
            expected_total_trx: quote.json.total_trx,
          }),
        ),
      );
    }
    expect(deep.sandbox.orders()).toHaveLength(1001);
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    expect(items(again)[0]).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(deep.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);
  }, 60_000);
});
