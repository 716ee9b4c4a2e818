/**
 * `ensure --every`, a long-running service, spawned for real: over many cycles it buys once per need (also
 * with two services on two hosts), logs transient failures and goes on, ends on config or credential
 * failures with their code, and stops cleanly on SIGTERM after the cycle in flight. Counted at the server.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

interface CycleLine {
  cycle: number;
  at: string;
  items: { address: string; reason: string }[];
  error?: { exit_code: number; message: string };
}

// An order delivers after 300 ms and an "hour" lasts 1.5 s: a need comes back about every 2 s.
const world = worldForSuite({ deliverAfterMs: 300, hourMs: 1_500, rateLimit: false });

function service(args: string[], stateDir = mkdtempSync(join(tmpdir(), 'energy-service-'))): RunningCli {
  return world.spawn(['ensure', ...args, '--json'], {
    env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: stateDir },
  });
}
const cycles = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CycleLine);
const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
describe('ensure --every', () => {
  it('two services on two hosts buy once per need over many cycles, and stop on SIGTERM with exit 0', async () => {
    const addresses = [freshAddress(15_800), freshAddress(15_801), freshAddress(15_802)];
    // Quotes are slow: each cycle decides ~600 ms before its order exists, so the two services' cycles overlap.
    world.sandbox.inject({ kind: 'delay', ms: 600, times: 100_000, match: { path: '/v1/energy/quotes' } });
    const args = rentalArgs(addresses, '--yes', '--every', '250ms');
    const services = [service(args), service(args)];
    let worst = 0;
    const deadline = Date.now() + 9_000;
    while (Date.now() < deadline) {
      for (const address of addresses) {
        worst = Math.max(worst, ordersTo(address).filter((order) => !order.lifecycle_final).length);
      }
      await sleep(20);
    }
    for (const { child } of services) child.kill('SIGTERM');
    const results = await Promise.all(services.map(({ result }) => result));
    world.sandbox.clearFaults();
    for (const result of results) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/SIGTERM: stopping after this cycle/);
      const lines = cycles(result.stdout);
      expect(lines.length).toBeGreaterThanOrEqual(5);
      expect(lines.map((line) => line.cycle)).toEqual(lines.map((_, i) => i + 1));
      expect(lines.every((line) => line.items.length === 3 && !Number.isNaN(Date.parse(line.at)))).toBe(true);
    }
    // Never two live orders for one address at once: one order per need, whichever service placed it.
    expect(worst).toBe(1);
    for (const address of addresses) expect(ordersTo(address).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('SIGTERM during an order lets it finish and be journaled, then exits 0', async () => {
    const address = freshAddress(15_810);
    const stateDir = mkdtempSync(join(tmpdir(), 'energy-service-'));
    world.sandbox.inject({ kind: 'delay', ms: 1500, match: { method: 'POST', path: '/v1/energy/orders' } });
    const orders = world.sandbox.requestCount('/v1/energy/orders');
    const running = service(rentalArgs(address, '--yes', '--every', '1h'), stateDir);
    await until('an order is sent', () => world.sandbox.requestCount('/v1/energy/orders') > orders, 20_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
    expect(cycles(result.stdout)).toMatchObject([{ cycle: 1, items: [{ address, reason: 'bought' }] }]);
    expect(readdirSync(join(stateDir, 'journal', 'pending'))).toEqual([]);
  }, 30_000);

  it('a transient failure is logged and retried next cycle; the service goes on', async () => {
    const address = freshAddress(15_820);
    world.sandbox.inject({
      kind: 'status',
      status: 503,
      times: 2,
      match: { method: 'GET', path: '/v1/energy/orders' },
    });
    const running = service(rentalArgs(address, '--yes', '--every', '200ms', '--retries', '0'));
    await until('the order is placed', () => ordersTo(address).length === 1, 20_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    const lines = cycles(result.stdout);
    expect(lines[0]).toMatchObject({ cycle: 1, items: [], error: { exit_code: 7 } });
    expect(lines.some((line) => line.items[0]?.reason === 'bought')).toBe(true);
    expect(result.stderr).toMatch(/cycle 1 failed \(exit 7\).*trying again next cycle/);
  }, 30_000);

  it.each([
    ['the options read', 'GET', '/v1/energy/options', 15_850],
    ['a quote', 'POST', '/v1/energy/quotes', 15_851],
  ])(
    'one 400 on %s is logged; the service goes on and buys on a later cycle',
    async (_, method, path, seed) => {
      const address = freshAddress(seed);
      world.sandbox.inject({ kind: 'status', status: 400, match: { method, path } });
      const running = service(rentalArgs(address, '--yes', '--every', '200ms'));
      // Or until it ends by itself, as it did on the 400 (exit 2).
      await until(
        'an order is placed or the service ends',
        () => ordersTo(address).length >= 1 || running.child.exitCode !== null,
        20_000,
      );
      running.child.kill('SIGTERM');
      const result = await running.result;
      expect(result.code, result.stderr).toBe(0);
      const lines = cycles(result.stdout);
      expect(lines[0]).toMatchObject({ cycle: 1, items: [], error: { exit_code: 2 } });
      expect(lines.find((line) => line.items[0]?.reason === 'bought')?.cycle).toBeGreaterThan(1);
      expect(result.stderr).toMatch(/cycle 1 failed \(exit 2\).*trying again next cycle/);
      expect(ordersTo(address)).toHaveLength(lines.filter((line) => line.items[0]?.reason === 'bought').length);
    },
    30_000,
  );

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    'a second %s while an order is in flight exits %i at once; the order stays journaled',
    async (name, code) => {
      const address = freshAddress(name === 'SIGTERM' ? 15_860 : 15_861);
      const stateDir = mkdtempSync(join(tmpdir(), 'energy-service-'));
      // The order is placed, and its answer never comes: the cycle cannot finish.
      world.sandbox.inject({ kind: 'hold-after-commit', match: { method: 'POST', path: '/v1/energy/orders' } });
      const running = service(rentalArgs(address, '--yes', '--every', '1h'), stateDir);
      await until('the order is placed', () => ordersTo(address).length === 1, 20_000);
      running.child.kill(name);
      await until(
        'the service says it stops after this cycle',
        () => running.output().stderr.includes(`${name}: stopping after this cycle`),
        20_000,
      );
      running.child.kill(name);
      const result = await running.result;
      expect(result.code, result.stderr).toBe(code);
      expect(result.stderr).toMatch(new RegExp(`${name} again: stopping now`));
      expect(result.stderr).not.toMatch(/internal error|stopped before finishing/);
      expect(readdirSync(join(stateDir, 'journal', 'pending'))).toHaveLength(1);
      expect(ordersTo(address)).toHaveLength(1);
    },
    30_000,
  );

  it('SIGTERM during the wait between cycles (--every 1h) ends it at once with exit 0', async () => {
    const address = freshAddress(15_870);
    const running = service(rentalArgs(address, '--yes', '--every', '1h'));
    await until('the first cycle is printed', () => cycles(running.output().stdout).length === 1, 20_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(cycles(result.stdout)).toMatchObject([{ cycle: 1, items: [{ address, reason: 'bought' }] }]);
    expect(result.stderr).toMatch(/stopped after cycle 1/);
    expect(ordersTo(address)).toHaveLength(1);
  }, 30_000);

  it.each([
    ['credentials refused: exit 3', { ENERGY_API_SECRET: 'wrong-secret-0123456789' }, [], 3],
    ['a duration not offered: exit 2', {}, ['--hours', '5'], 2],
  ])(
    'ends on %s',
    async (_, env, extra, code) => {
      const address = freshAddress(15_830 + code);
      const args = [
        address,
        '--energy',
        '65000',
        '--yes',
        '--every',
        '100ms',
        ...(extra.length ? extra : ['--hours', '1']),
      ];
      const result = await world.run(['ensure', ...args, '--json'], {
        env: { ENERGY_TRON_NODE: world.sandbox.url, ...env },
      });
      expect(result.code, result.stderr).toBe(code);
      expect(ordersTo(address)).toHaveLength(0);
    },
    30_000,
  );

  it('refuses a duration it cannot read (exit 2)', async () => {
    const result = await world.run(['ensure', freshAddress(15_840), '--energy', '1', '--hours', '1', '--every', '5x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/must be a duration such as 30s/);
  });
});
