/**
 * One clock the tool can trust (issue 44), spawned for real and counted at the sandbox (orders, TRX): a server
 * clock read wrong once is read again; a host clock that steps inside a run or a service's cycle moves
 * neither the ledger nor the service's spacing; an order that carries a failure object while neither of its
 * final flags is set holds its price and counts in flight. The wrong answers come from a node:http front
 * (test/helpers/api-front.ts), the host clock's steps from the test-only shift-clock preload.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { CliResult } from '../helpers/cli.js';
import { startApiFront, type ApiFront, type FrontOptions } from '../helpers/api-front.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { stepClock, steppedClockEnv } from '../helpers/shifted-clock.js';
import { worldForSuite } from '../helpers/suite-world.js';

const HOUR_MS = 3_600_000;

interface CycleLine {
  cycle: number;
  items: { address: string; reason: string }[];
}

const reasons = (result: CliResult): string[] =>
  (JSON.parse(result.stdout) as { items: { reason: string }[] }).items.map((item) => item.reason);

const cycles = (stdout: string): CycleLine[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as CycleLine);

describe('one server clock, advanced by a monotonic clock', () => {
  // Rentals cost 3.900000 TRX; a rented "hour" lasts 2 s of sandbox time, so an address needs again soon.
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false, hourMs: 2_000 });
  let folder: string;
  const fronts: ApiFront[] = [];
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'energy-clock-'));
  });
  afterAll(async () => {
    await Promise.all(fronts.map((front) => front.close()));
    rmSync(folder, { recursive: true, force: true });
  });

  let next = 44_000;
  /** Activated addresses of its own for each test, and its own state folder. */
  function setUp(count: number): { addresses: string[]; env: Record<string, string> } {
    world.sandbox.setRates({ 1: '0.000060' });
    const addresses = Array.from({ length: count }, () => freshAddress(next++));
    for (const address of addresses) world.sandbox.seedTronAccount(address, { activated: true });
    const env = { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: join(folder, `state-${next}`) };
    return { addresses, env };
  }
  async function front(options: FrontOptions): Promise<ApiFront> {
    const started = await startApiFront(world.sandbox.url, options);
    fronts.push(started);
    return started;
  }
  const placedTo = (addresses: readonly string[]) =>
    world.sandbox
      .orders()
      .filter((order) => addresses.includes(order.address))
      .map((order) => order.total_trx);
  const ensure = (addresses: string[], ...more: string[]) => [
    'ensure',
    ...rentalArgs(addresses, '--yes', '--max-spend', '8/1h', ...more),
  ];

  it('a service whose first GET /v1/time answer is 2 h behind (then right), 8/1h, 2 addresses: 2 orders, 7.8 TRX', async () => {
    const { addresses, env } = setUp(2);
    const api = await front({ time: (n, unix) => (n === 1 ? unix - 7200 : unix) });
    const running = world.spawn(ensure(addresses, '--every', '500ms', '--json'), {
      env: { ...env, ENERGY_BASE_URL: api.url },
    });
    onTestFinished(() => void running.child.kill('SIGKILL'));
    // Each rental ends 2 s on: a service that forgot cycle 1's orders buys them again within a few cycles.
    await until('10 cycles', () => cycles(running.output().stdout).length >= 10, 30_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(placedTo(addresses)).toEqual(['3.900000', '3.900000']);
    // The first answer was read again before it was taken.
    expect(api.timeReadings).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('a host clock that steps 2 h back inside a run (after its GET /v1/time) files its orders on the server clock: 7.8 TRX under 8/1h', async () => {
    const { addresses, env } = setUp(4);
    const shiftFile = join(folder, `shift-${next}`);
    let stepped = false;
    const api = await front({
      onRequest: (_method, path) => {
        if (stepped || path !== '/v1/energy/quotes') return;
        stepped = true;
        stepClock(shiftFile, -2 * HOUR_MS);
      },
    });
    const first = await world.run(ensure(addresses, '--json'), {
      env: { ...env, ...steppedClockEnv(shiftFile), ENERGY_BASE_URL: api.url },
    });
    expect(stepped).toBe(true);
    expect(first.code, first.stderr).toBe(9);
    expect(placedTo(addresses)).toEqual(['3.900000', '3.900000']);
    // The rentals end; a run on a right clock finds the ledger full for the hour.
    world.sandbox.advance(3_000);
    const second = await world.run(ensure(addresses, '--json'), { env: { ...env, ENERGY_BASE_URL: api.url } });
    expect(reasons(second), second.stderr).toEqual(['spend_limit', 'spend_limit', 'spend_limit', 'spend_limit']);
    expect(placedTo(addresses)).toEqual(['3.900000', '3.900000']);
  }, 60_000);

  it('a host clock that steps 2 h back inside a service cycle: the next cycles still come every interval', async () => {
    const { addresses, env } = setUp(1);
    const shiftFile = join(folder, `shift-${next}`);
    let stepped = false;
    const api = await front({
      onRequest: () => {
        if (stepped) return;
        stepped = true;
        stepClock(shiftFile, -2 * HOUR_MS);
      },
    });
    const running = world.spawn(ensure(addresses, '--every', '500ms', '--json'), {
      env: { ...env, ...steppedClockEnv(shiftFile), ENERGY_BASE_URL: api.url },
    });
    onTestFinished(() => void running.child.kill('SIGKILL'));
    await until('5 cycles', () => cycles(running.output().stdout).length >= 5, 20_000);
    running.child.kill('SIGTERM');
    expect((await running.result).code).toBe(0);
  }, 60_000);

  it('a run whose first GET /v1/time answer is 2 days ahead (then right), beside a full 8/1h ledger, buys nothing', async () => {
    const { addresses, env } = setUp(2);
    const wrong = { at: 0 };
    const api = await front({ time: (n, unix) => (n === wrong.at ? unix + 2 * 86_400 : unix) });
    const first = await world.run(ensure(addresses, '--json'), { env: { ...env, ENERGY_BASE_URL: api.url } });
    expect(first.code, first.stderr).toBe(0);
    world.sandbox.advance(3_000);
    wrong.at = api.timeReadings + 1;
    const second = await world.run(ensure(addresses, '--json'), { env: { ...env, ENERGY_BASE_URL: api.url } });
    expect(reasons(second), second.stderr).toEqual(['spend_limit', 'spend_limit']);
    expect(placedTo(addresses)).toEqual(['3.900000', '3.900000']);
    expect(api.timeReadings).toBeGreaterThan(wrong.at);
  }, 60_000);
});

describe('a failure object on an order that is not final', () => {
  // Rentals of a real hour: an order that stays in flight is never needed again within the test.
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });
  // The TRON node is another sandbox, where no delivery shows: what the API says decides what is in flight.
  let node: Sandbox;
  let front: ApiFront;
  const failing = freshAddress(44_900);
  const healthy = freshAddress(44_901);
  beforeAll(async () => {
    node = await startSandbox({ rateLimit: false });
    for (const address of [failing, healthy]) node.seedTronAccount(address, { activated: true });
    front = await startApiFront(world.sandbox.url, {
      order: (order: Order) =>
        order.address !== failing
          ? order
          : {
              ...order,
              status: 'delegating',
              lifecycle_final: false,
              delivery_final: false,
              failure: { code: 'DELEGATION_RETRYING', message: 'not final yet' },
            },
    });
  });
  afterAll(async () => Promise.all([front.close(), node.close()]));

  it('holds its price and counts in flight: a service under 8/1h places 2 orders, not 3', async () => {
    world.sandbox.setRates({ 1: '0.000060' });
    for (const address of [failing, healthy]) world.sandbox.seedTronAccount(address, { activated: true });
    const stateDir = mkdtempSync(join(tmpdir(), 'energy-nonfinal-'));
    onTestFinished(() => rmSync(stateDir, { recursive: true, force: true }));
    const running = world.spawn(
      ['ensure', ...rentalArgs([failing, healthy], '--yes', '--max-spend', '8/1h', '--every', '300ms', '--json')],
      { env: { ENERGY_BASE_URL: front.url, ENERGY_TRON_NODE: node.url, ENERGY_STATE_DIR: stateDir } },
    );
    onTestFinished(() => void running.child.kill('SIGKILL'));
    await until('12 cycles', () => cycles(running.output().stdout).length >= 12, 30_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    const placed = world.sandbox.orders().filter((order) => [failing, healthy].includes(order.address));
    expect(placed.map((order) => order.total_trx)).toEqual(['3.900000', '3.900000']);
    expect(
      cycles(result.stdout)
        .at(-1)!
        .items.find((item) => item.address === failing)!.reason,
    ).toBe('in_flight');
  }, 60_000);

  it('order create --wait follows it on: the wait runs out (exit 10, the order stands), not exit 8 "failed"', async () => {
    const result = await world.run(
      ['order', 'create', ...rentalArgs(failing, '--yes', '--wait', '--wait-timeout', '2s', '--json')],
      { env: { ENERGY_BASE_URL: front.url } },
    );
    expect(result.code, result.stderr).toBe(10);
    expect(result.stderr).toContain('still');
  }, 60_000);
});
