/**
 * `order batch` from several hosts (processes with separate state folders) and with a file that changes
 * during the run, spawned for real. Counted at the server: orders per line's address and id.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { freshAddress } from '../helpers/e2e.js';
import { shiftedClockEnv } from '../helpers/shifted-clock.js';
import { createWorld, type World } from '../helpers/world.js';

let world: World;
let dir: string;
beforeAll(async () => {
  world = await createWorld({ startingBalance: '100000.000000', deliverAfterMs: 60_000, rateLimit: false });
  dir = mkdtempSync(join(tmpdir(), 'energy-batch-hosts-'));
});
afterAll(async () => {
  await world.close();
  rmSync(dir, { recursive: true, force: true });
});

let next = 15_500;
const addresses = (count: number) => Array.from({ length: count }, () => freshAddress((next += 1)));
function csv(name: string, list: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `address,energy,hours\n${list.map((address) => `${address},65000,1`).join('\n')}\n`);
  return path;
}
/** A host: its own state folder, as another machine or container would have. */
function host(env: Record<string, string> = {}): (args: string[]) => Promise<CliResult> {
  const stateDir = mkdtempSync(join(dir, 'host-'));
  return (args) => world.run(['order', 'batch', ...args], { env: { ENERGY_STATE_DIR: stateDir, ...env } });
}
const statuses = (result: CliResult) =>
  result.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { status: string }).status);
const ordersTo = (list: readonly string[]) => world.sandbox.orders().filter((order) => list.includes(order.address));

describe('order batch from 3 hosts', () => {
  it('the same file run from 3 hosts at once places each line once', async () => {
    const list = addresses(20);
    const file = csv('hosts.csv', list);
    // Every host quotes (plans) before any order exists: the first round of quotes waits 2 s.
    world.sandbox.inject({ kind: 'delay', ms: 2000, times: 12, match: { path: '/v1/energy/quotes' } });
    const results = await Promise.all([host(), host(), host()].map((run) => run([file, '--yes', '--json'])));
    world.sandbox.clearFaults();
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const orders = ordersTo(list);
    expect(orders).toHaveLength(20);
    expect(new Set(orders.map((order) => order.address)).size).toBe(20);
    const all = results.flatMap(statuses);
    expect(all.filter((status) => status === 'created')).toHaveLength(20);
    expect(all.filter((status) => status === 'existing')).toHaveLength(40);
  }, 60_000);

  it('another host running the file later at another price: 409, found in the list, is existing (exit 0)', async () => {
    const list = addresses(3);
    const file = csv('later.csv', list);
    const first = await host()([file, '--yes', '--json']);
    expect(first.code, first.stderr).toBe(0);
    world.sandbox.setRates({ 1: '0.000050' });
    try {
      const later = await host()([file, '--yes', '--json']);
      expect(later.code, later.stderr).toBe(0);
      expect(statuses(later)).toEqual(['existing', 'existing', 'existing']);
    } finally {
      world.sandbox.setRates({ 1: '0.000040' });
    }
    expect(ordersTo(list)).toHaveLength(3);
  }, 60_000);

  it("the later host's clock two days ahead: its 409s are looked up on the server's clock, and found", async () => {
    const list = addresses(2);
    const file = csv('ahead.csv', list);
    const first = await host()([file, '--yes', '--json']);
    expect(first.code, first.stderr).toBe(0);
    // 100 newer orders: the first page (100 a page) no longer holds the file's orders.
    const others = await host()([csv('others.csv', addresses(100)), '--yes', '--json']);
    expect(others.code, others.stderr).toBe(0);
    world.sandbox.setRates({ 1: '0.000050' });
    try {
      const later = await host(shiftedClockEnv(48 * 3_600_000))([file, '--yes', '--json']);
      expect(later.code, later.stderr).toBe(0);
      expect(statuses(later)).toEqual(['existing', 'existing']);
    } finally {
      world.sandbox.setRates({ 1: '0.000040' });
    }
    expect(ordersTo(list)).toHaveLength(2);
  }, 60_000);
});

describe('a batch file that changes during the run', () => {
  it('orders the bytes it hashed: a file replaced or appended to mid-run changes nothing in this run', async () => {
    const before = addresses(3);
    const after = addresses(5);
    const file = csv('moving.csv', before);
    world.sandbox.inject({ kind: 'delay', ms: 1500, times: 3, match: { path: '/v1/energy/quotes' } });
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const run = host()([file, '--yes', '--json']);
    while (world.sandbox.requestCount('/v1/energy/quotes') === quotes) await sleep(20);
    // Replaced while the lines are being quoted: a new file, with more lines, under the same name.
    renameSync(csv('moving-new.csv', after), file);
    const result = await run;
    world.sandbox.clearFaults();
    expect(result.code, result.stderr).toBe(0);
    expect(statuses(result)).toEqual(['created', 'created', 'created']);
    expect(ordersTo(before)).toHaveLength(3);
    expect(ordersTo(after)).toHaveLength(0);
  }, 60_000);
});
