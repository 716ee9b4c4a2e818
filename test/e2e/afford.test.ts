/**
 * Orders the balance cannot pay are refused before any is placed (exit 5, "needs X TRX, Y available"),
 * unless --place-what-fits asks for the old behaviour. Counted at the server: order POSTs and orders.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';
import type { World } from '../helpers/world.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-afford-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const orderPosts = (world: World) => world.sandbox.requestCount('/v1/energy/orders', 'POST');

/** A suite's world with 5 TRX: one 65,000-energy hour fits, three do not. */
function poorWorld(addresses: string[] = []): World {
  return worldForSuite({
    startingBalance: '5.000000',
    deliverAfterMs: 60_000,
    tronAccounts: Object.fromEntries(addresses.map((address) => [address, { energy: 0 }])),
  });
}

function batchFile(name: string, first: number): string {
  const path = join(dir, name);
  const rows = [1, 2, 3].map((n) => `${freshAddress(first + n)},65000,1`);
  writeFileSync(path, `address,energy,hours\n${rows.join('\n')}\n`);
  return path;
}

describe('order batch on a balance that cannot pay the sum', () => {
  const world = poorWorld();

  it('places nothing and exits 5, saying what is needed and what is available', async () => {
    const result = await world.run(['order', 'batch', batchFile('poor.csv', 31_000), '--yes']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/needs \d+\.\d{6} TRX, 5\.000000 available/);
    expect(result.stderr).toContain('--place-what-fits');
    expect(orderPosts(world)).toBe(0);
    expect(world.sandbox.orders()).toHaveLength(0);
  });

  it('a dry run reads the balance once and says a real run would refuse; its table shows ENERGY and HOURS', async () => {
    const balanceReads = world.sandbox.requestCount('/v1/balance', 'GET');
    const result = await world.run(['order', 'batch', batchFile('dry.csv', 33_000), '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /; 11\.100000 TRX in all; 5\.000000 TRX available, not enough for the 11\.100000 TRX of new orders: a real run would buy nothing \(exit 5; --place-what-fits places the lines it covers\); nothing was bought$/m,
    );
    expect(world.sandbox.requestCount('/v1/balance', 'GET') - balanceReads).toBe(1);
    expect(orderPosts(world)).toBe(0);
    const [head, row] = result.stdout.split('\n');
    expect(head!.split(/\s+/)).toEqual([
      'LINE',
      'CLIENT_REQUEST_ID',
      'PLAN',
      'ADDRESS',
      'ENERGY',
      'HOURS',
      'TOTAL_TRX',
    ]);
    expect(row!.split(/\s+/).slice(4)).toEqual(['65,000', '1', '3.700000']);

    const fits = await world.run([
      'order',
      'batch',
      batchFile('dry-fits.csv', 34_000),
      '--dry-run',
      '--place-what-fits',
    ]);
    expect(fits.stderr).toMatch(
      /: a real run would place the lines it covers, in order, and fail the other 2 \(exit 9\); nothing/,
    );
    // Each line says whether a real run would send it: the first is covered, the other two are not.
    const plans = fits.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/)[2]);
    expect(plans).toEqual(['order', 'unfunded', 'unfunded']);
  });

  it('with --place-what-fits places, in the order given, the lines the balance covers; the rest fail unsent (exit 9)', async () => {
    const file = batchFile('fits.csv', 32_000);
    const result = await world.run(['order', 'batch', file, '--yes', '--place-what-fits', '--json']);
    expect(result.code, result.stderr).toBe(9);
    expect(orderPosts(world)).toBe(1);
    expect(world.sandbox.orders().map((order) => order.address)).toEqual([freshAddress(32_001)]);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { line: number; status: string; error: { exit_code: number; message: string } | null },
      )
      .sort((a, b) => a.line - b.line);
    expect(lines.map((line) => line.status)).toEqual(['created', 'failed', 'failed']);
    expect(lines[1]!.error).toEqual({
      exit_code: 5,
      message:
        '3.700000 TRX is more than the balance has left after the lines before it (5.000000 TRX available): not ordered',
    });
    expect(result.stderr).toMatch(/2 of 3 lines failed \(the others stand\)/);
    // The re-run it suggests places what fits too, under the same cap.
    const again = await world.run(['order', 'batch', file, '--yes', '--max-total', '20', '--place-what-fits']);
    expect(again.code).toBe(9);
    expect(again.stderr).toContain(`order batch ${file} --max-total 20.000000 --place-what-fits --yes\n`);
  });
});

describe('ensure over several short addresses on a balance that cannot pay the sum', () => {
  const addresses = [1, 2, 3].map((n) => freshAddress(33_000 + n));
  const world = poorWorld(addresses);
  const ensure = (...args: string[]) =>
    world.run(['ensure', ...addresses, '--energy', '65000', '--hours', '1', '--yes', ...args], {
      env: { ENERGY_TRON_NODE: world.sandbox.url },
    });

  it('buys nothing and exits 5', async () => {
    const result = await ensure();
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/needs \d+\.\d{6} TRX, 5\.000000 available/);
    expect(orderPosts(world)).toBe(0);
    expect(world.sandbox.orders()).toHaveLength(0);
  });

  it('with --place-what-fits buys, in the order given, for the addresses the balance covers; sends no other', async () => {
    const result = await ensure('--place-what-fits', '--json');
    expect(result.code).toBe(9);
    expect(orderPosts(world)).toBe(1);
    expect(world.sandbox.orders().map((order) => order.address)).toEqual([addresses[0]]);
    const items = (JSON.parse(result.stdout) as { items: { reason: string; error: { message: string } | null }[] })
      .items;
    expect(items.map((item) => item.reason)).toEqual(['bought', 'failed', 'failed']);
    expect(items[1]!.error!.message).toMatch(/more than the balance has left after the addresses listed before it/);
  });
});

describe('order create --yes with a quote above the balance', () => {
  const world = poorWorld();

  it('places nothing and exits 5', async () => {
    const result = await world.run([
      'order',
      'create',
      freshAddress(34_001),
      '--energy',
      '650000',
      '--hours',
      '1',
      '--yes',
    ]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/needs \d+\.\d{6} TRX, 5\.000000 available/);
    expect(orderPosts(world)).toBe(0);
    expect(world.sandbox.orders()).toHaveLength(0);
  });
});

describe('order batch on a balance exactly the sum', () => {
  /** Two of the standard rentals at 3.700000 TRX each (activation included): 7.400000 to the micro-TRX. */
  const world = worldForSuite({ startingBalance: '7.400000', deliverAfterMs: 60_000 });

  it('places every line: a balance equal to the total pays it', async () => {
    const path = join(dir, 'exact.csv');
    const addresses = [1, 2].map((n) => freshAddress(35_000 + n));
    writeFileSync(path, `address,energy,hours\n${addresses.map((a) => `${a},65000,1`).join('\n')}\n`);
    const result = await world.run(['order', 'batch', path, '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(orderPosts(world)).toBe(2);
    const orders = world.sandbox.orders();
    expect(orders.map((order) => order.address).sort()).toEqual([...addresses].sort());
    expect(orders.map((order) => order.total_trx)).toEqual(['3.700000', '3.700000']);
  });
});
