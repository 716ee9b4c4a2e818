/**
 * A server that keeps to the spec's words where the spec is silent, in ways a client must not take on
 * trust (issue 32): a /v1/time that cannot be the time, a list served oldest first, a page repeated under a
 * fresh cursor, order stamps ahead of /v1/time. Each runs the built CLI against the sandbox, which plays
 * that server through an option.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import type { CliResult } from '../helpers/cli.js';
import { expectNoStackTrace, freshAddress, signedCall, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { shiftedClockEnv } from '../helpers/shifted-clock.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json, type World } from '../helpers/world.js';

interface Item {
  address: string;
  in_flight: number;
  to_buy: number;
  reason: string;
  bought: Order | null;
}
const items = (result: CliResult) => json<{ items: Item[] }>(result).items;

/** `energy ensure` from a host with its own state folder, on the sandbox's TRON node. */
function ensureHost(world: World): (args: string[]) => Promise<CliResult> {
  const stateDir = mkdtempSync(join(tmpdir(), 'energy-host-'));
  return (args) =>
    world.run(['ensure', ...args], { env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: stateDir } });
}

/** One order placed straight at the sandbox (not through the CLI): `energy` energy for 1 h to `address`. */
async function placeAt(world: World, address: string, energy: number, id: string): Promise<Order> {
  const quote = await signedCall(world, 'POST', '/v1/energy/quotes', { address, energy, duration_hours: 1 });
  const placed = await signedCall(world, 'POST', '/v1/energy/orders', {
    client_request_id: id,
    address,
    energy,
    duration_hours: 1,
    expected_total_trx: quote.json.total_trx,
  });
  expect(placed.status).toBe(201);
  return placed.json as Order;
}

describe('a /v1/time that cannot be the time', () => {
  // Spec, Time response: "unix_time | integer (int64) | Server time in Unix seconds" — no range is given.
  const negative = worldForSuite({ timeAnswer: -5 });
  const yearsAhead = worldForSuite({ timeAnswer: Math.floor(Date.now() / 1000) + 10 * 365 * 86_400 });

  it('-5 is refused like a malformed answer (exit 7), never stored, and the next command still signs', async () => {
    const time = await negative.run(['time']);
    expect(time.code).toBe(7);
    expect(time.stderr).toMatch(/unix_time -5, which cannot be the time \(before 2020\)/);
    expectNoStackTrace(time);
    expect(existsSync(join(negative.configDir, 'clock-offset.json'))).toBe(false);
    const balance = await negative.run(['balance', '--json']);
    expect(balance.code).toBe(0);
    expect(JSON.parse(balance.stdout)).toMatchObject({ available_trx: '1000.000000' });
  });

  it('a time ten years from this host is refused too', async () => {
    const time = await yearsAhead.run(['time']);
    expect(time.code).toBe(7);
    expect(time.stderr).toMatch(/more than five years from this host's clock/);
    expect(existsSync(join(yearsAhead.configDir, 'clock-offset.json'))).toBe(false);
  });

  it('a host an hour ahead meets a 401, then -5 from /v1/time: exit 3, no second try, no offset stored', async () => {
    const before = negative.sandbox.requestCount('/v1/balance');
    const balance = await negative.run(['balance'], { env: shiftedClockEnv(3_600_000) });
    expect(balance.code, balance.stderr).toBe(3);
    expectNoStackTrace(balance);
    expect(negative.sandbox.requestCount('/v1/balance') - before).toBe(1);
    expect(existsSync(join(negative.configDir, 'clock-offset.json'))).toBe(false);
  });

  it('an offset stored from such a time is not used: balance signs on the host clock, exit 0', async () => {
    mkdirSync(negative.configDir, { recursive: true, mode: 0o700 });
    const measuredAt = Math.floor(Date.now() / 1000);
    // What an earlier version stored after answering {"unix_time": -5}: server minus local.
    const offsets = { [negative.sandbox.url]: { offset_seconds: -5 - measuredAt, measured_at: measuredAt } };
    writeFileSync(join(negative.configDir, 'clock-offset.json'), JSON.stringify(offsets), { mode: 0o600 });
    const balance = await negative.run(['balance']);
    expect(balance.code).toBe(0);
  });
});

describe('a list that repeats its first page under a fresh cursor', () => {
  // Spec, Order list response: "items | array of Order" and an opaque next_cursor; nothing says an order
  // is listed once. Slow delivery: an order stays on its way while ensure looks.
  const world = worldForSuite({ repeatFirstPage: true, deliverAfterMs: 120_000, rateLimit: false });
  const X = freshAddress(32_300);

  it('spend sums each order once (1.900000, not 3.800000) and says the server repeated it', async () => {
    // 20,000 × 0.000040 + 1.100000 activation.
    await placeAt(world, X, 20_000, 'twenty-thousand');
    const spend = await world.run(['spend', '--json']);
    expect(spend.code, spend.stderr).toBe(0);
    expect(JSON.parse(spend.stdout)).toMatchObject({ total_trx: '1.900000', orders: 1 });
    expect(spend.stderr).toContain(
      'the server listed an order more than once; each order is counted once, but a list that repeats orders may also have left some out: the total may be short of what was spent',
    );
  });

  it('ensure counts the 20,000 on its way once: it buys 45,000, not 25,000', async () => {
    const result = await ensureHost(world)(rentalArgs(X, '--yes', '--json'));
    expect(result.code, result.stderr).toBe(0);
    expect(items(result)[0]).toMatchObject({ reason: 'bought', in_flight: 20_000, to_buy: 45_000 });
    expect(world.sandbox.orders().filter((order) => order.address === X)).toHaveLength(2);
    expect(result.stderr).toMatch(/listed an order more than once/);
  });
});

describe('a list served oldest first', () => {
  // Spec, List query parameters: limit and cursor only; the order of items is not given. 25 seeded orders a
  // week old come first; pages of the server's default size (20) once 100 and 50 are refused.
  const world = worldForSuite({
    listOrder: 'oldest-first',
    seedOrders: 25,
    deliverAfterMs: 300,
    hourMs: 1_500,
    rateLimit: false,
  });
  const X = freshAddress(32_400);
  let firstCreatedAt = 0;

  it("ensure finds the address's own expired order and buys for the new need (no expired order reported bought)", async () => {
    world.sandbox.setMaxPageSize(20);
    const run = ensureHost(world);
    const first = await run(rentalArgs(X, '--yes', '--json'));
    expect(first.code, first.stderr).toBe(0);
    const o1 = items(first)[0]!.bought!;
    firstCreatedAt = o1.created_at;
    await until('the order expired', () => world.sandbox.orders().find((order) => order.id === o1.id)!.lifecycle_final);
    const again = await run(rentalArgs(X, '--yes', '--json'));
    expect(again.code, again.stderr).toBe(0);
    const [item] = items(again);
    expect(item!.reason).toBe('bought');
    expect(item!.bought!.id).not.toBe(o1.id);
    expect(world.sandbox.orders().filter((order) => order.address === X)).toHaveLength(2);
    expect(again.stderr).toMatch(/not newest first \(created_at rises down it\): it was read whole/);
  }, 60_000);

  it("spend --since the first order sums X's two orders (3.700000 + 2.600000), not 0", async () => {
    // The seeded orders are minutes older (a week of 1.5 s hours before the sandbox started).
    const since = new Date(firstCreatedAt * 1000).toISOString().slice(0, 19) + 'Z';
    const spend = await world.run(['spend', '--since', since, '--json']);
    expect(spend.code, spend.stderr).toBe(0);
    expect(JSON.parse(spend.stdout)).toMatchObject({ total_trx: '6.300000', orders: 2 });
  });
});

describe("a 409's order is the line's only if it matches", () => {
  const world = worldForSuite({ rateLimit: false });
  const X = freshAddress(32_600);
  const Y = freshAddress(32_601);

  /** `energy order batch` from a host with its own state folder. */
  function batchHost(): (file: string, ...args: string[]) => Promise<CliResult> {
    const stateDir = mkdtempSync(join(tmpdir(), 'energy-host-'));
    return (file, ...args) =>
      world.run(['order', 'batch', file, '--yes', ...args], { env: { ENERGY_STATE_DIR: stateDir } });
  }

  it("file B's line with id 1 for Y, on another host, is not file A's order 1 for X: failed, exit 9, nothing bought for Y", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'energy-files-'));
    writeFileSync(join(folder, 'a.csv'), `address,energy,hours,client_request_id\n${X},65000,1,1\n`);
    writeFileSync(join(folder, 'b.csv'), `address,energy,hours,client_request_id\n${Y},65000,1,1\n`);
    const a = await batchHost()(join(folder, 'a.csv'));
    expect(a.code, a.stderr).toBe(0);
    const b = await batchHost()(join(folder, 'b.csv'), '--json');
    // The server answers 409 (the id is taken with other parameters); the list shows order 1 for X.
    expect(b.code).toBe(9);
    const [line] = b.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { status: string; error: { message: string } });
    expect(line!.status).toBe('failed');
    expect(line!.error.message).toMatch(
      new RegExp(`client_request_id 1 is already order \\S+ for ${X}, 65,000 energy, 1 h: not this request's`),
    );
    expect(world.sandbox.orders().filter((order) => order.address === Y)).toHaveLength(0);
    expect(world.sandbox.orders().filter((order) => order.address === X)).toHaveLength(1);
  });
});

describe("order batch: an order older than the run's look-back is not this run's purchase", () => {
  const world = worldForSuite({ rateLimit: false });
  const P = freshAddress(32_900);
  const Q = freshAddress(32_901);

  it("next month's payouts.csv on a host without last month's journal: each line fails saying so, exit 9, nothing bought", async () => {
    // P activated already (its price stays 2.600000: the server answers 200 with last month's order); Q new (its
    // price falls once delivered: the server answers 409, and the list shows last month's order).
    world.sandbox.seedTronAccount(P, {});
    const text = `address,energy,hours\n${P},65000,1\n${Q},65000,1\n`;
    const [monthOne, monthTwo] = [mkdtempSync(join(tmpdir(), 'energy-m1-')), mkdtempSync(join(tmpdir(), 'energy-m2-'))];
    writeFileSync(join(monthOne, 'payouts.csv'), text);
    writeFileSync(join(monthTwo, 'payouts.csv'), text);
    const hostA = mkdtempSync(join(tmpdir(), 'energy-host-'));
    const first = await world.run(['order', 'batch', join(monthOne, 'payouts.csv'), '--yes'], {
      env: { ENERGY_STATE_DIR: hostA },
    });
    expect(first.code, first.stderr).toBe(0);
    expect(world.sandbox.orders()).toHaveLength(2);
    world.sandbox.advance(25 * 3_600_000);
    const hostB = mkdtempSync(join(tmpdir(), 'energy-host-'));
    const again = await world.run(['order', 'batch', join(monthTwo, 'payouts.csv'), '--yes', '--json'], {
      env: { ENERGY_STATE_DIR: hostB },
    });
    expect(again.code, again.stderr).toBe(9);
    const lines = again.stdout
      .trim()
      .split('\n')
      .map((row) => JSON.parse(row) as { status: string; error: { message: string } | null });
    expect(lines.map((line) => line.status)).toEqual(['failed', 'failed']);
    for (const line of lines) {
      expect(line.error!.message).toMatch(
        /already names order \S+, placed \S+Z, before this run's look-back of 24 h: an earlier run of a file of the same name, not this run's purchase; nothing bought\. To buy these lines again, run them as another batch/,
      );
    }
    expect(world.sandbox.orders()).toHaveLength(2);
  }, 60_000);
});

describe('order stamps ahead of /v1/time', () => {
  // Spec, Order: "created_at | integer (int64) | required. Unit: not shown." Nothing ties the stamps to
  // GET /v1/time's clock; this server stamps local time as UTC, 8 h ahead.
  const world = worldForSuite({ stampsAheadSeconds: 28_800, deliverAfterMs: 300, rateLimit: false });
  const X = freshAddress(33_000);

  it('a delivered order whose energy was used is bought for again at once, not kept in flight for 8 h', async () => {
    const run = ensureHost(world);
    const first = await run(rentalArgs(X, '--yes', '--json'));
    expect(first.code, first.stderr).toBe(0);
    const o1 = items(first)[0]!.bought!;
    await until('delivered', () => world.sandbox.orders().find((order) => order.id === o1.id)!.delivery_final);
    // The node shows the delegation (EnergyLimit 65,000), all of it used since.
    world.sandbox.seedTronAccount(X, { energyUsed: 65_000 });
    const again = await run(rentalArgs(X, '--yes', '--json'));
    expect(again.code, again.stderr).toBe(0);
    expect(items(again)[0]).toMatchObject({ reason: 'bought', in_flight: 0 });
    expect(world.sandbox.orders().filter((order) => order.address === X)).toHaveLength(2);
  }, 60_000);

  it('a delivery the node does not show yet still counts in flight (no second order)', async () => {
    const Y = freshAddress(33_001);
    world.sandbox.setTronLag(60_000);
    try {
      const run = ensureHost(world);
      const first = await run(rentalArgs(Y, '--yes', '--json'));
      expect(first.code, first.stderr).toBe(0);
      const o1 = items(first)[0]!.bought!;
      await until('delivered', () => world.sandbox.orders().find((order) => order.id === o1.id)!.delivery_final);
      const again = await run(rentalArgs(Y, '--yes', '--json'));
      expect(again.code, again.stderr).toBe(0);
      expect(items(again)[0]).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
      expect(world.sandbox.orders().filter((order) => order.address === Y)).toHaveLength(1);
    } finally {
      world.sandbox.setTronLag(0);
    }
  }, 60_000);
});

describe('rent or burn says what it assumes', () => {
  const world = worldForSuite({ rateLimit: false });

  it('quote --hours 168 with a node: the burn is for one use; the rental can serve 7 days of use', async () => {
    const table = await world.run(['quote', freshAddress(33_100), '--energy', '65000', '--hours', '168'], {
      env: { ENERGY_TRON_NODE: world.sandbox.url },
    });
    expect(table.code, table.stderr).toBe(0);
    // 65,000 energy at the sandbox node's 100 sun.
    expect(table.stdout).toMatch(/^Burn instead +6\.500000 TRX$/m);
    expect(table.stdout).toMatch(
      /^Burn assumes +the energy used once; it recovers over 24 h, so this 7-day rental can serve 7 days of use/m,
    );
  });
});
