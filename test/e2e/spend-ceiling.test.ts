/**
 * `ensure --max-spend` holds (issue 38), spawned for real against the sandbox with the state folder, counted
 * at the server (orders, TRX) and in the ledger file (read here line by line, not through the code): every
 * order of a run placing several at once is in the ledger; an order is filed at the run's measure of the
 * server's clock, whatever its stamps (2 h behind, 8 h ahead); a short window beside a long one prunes
 * nothing the long one counts; room returns once the window passes; a budget spans API keys; an order
 * that ended undelivered without a failure object gives its price back; a ledger that cannot be read, a
 * 404 for one of its orders, and what refusals say.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_CANCELLED_ADDRESS, type SandboxOptions } from '../../src/sandbox/index.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import type { RunOptions } from '../helpers/cli.js';
import type { World } from '../helpers/world.js';

const HOUR = 3_600_000;

interface LedgerLine {
  kind?: string;
  id?: string;
  order_id?: string;
  total_trx?: string;
}

/** The ledger files' lines in a state folder, parsed here: the order events' order ids, and all lines. */
function ledgerOf(stateDir: string): { orderIds: string[]; lines: LedgerLine[] } {
  const folder = join(stateDir, 'journal');
  const lines = readdirSync(folder)
    .filter((name) => name.endsWith('.ndjson'))
    .flatMap((name) => readFileSync(join(folder, name), 'utf8').trim().split('\n'))
    .map((line) => JSON.parse(line) as LedgerLine);
  const orderIds = lines.filter((line) => line.kind === 'order').map((line) => line.order_id!);
  return { orderIds: [...new Set(orderIds)].sort(), lines };
}

interface PricedWorld {
  readonly sandbox: World['sandbox'];
  /** The state folder its runs share (each run may name another). */
  folder: string;
  run: World['run'];
  spawn: World['spawn'];
  /** A fresh address, activated already. */
  address(n: number): string;
}

/** A world whose rentals cost 3.900000 TRX (0.000060 a unit of energy, addresses activated already). */
function pricedWorld(options: SandboxOptions = {}): PricedWorld {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false, ...options });
  const folder = mkdtempSync(join(tmpdir(), 'energy-ceiling-'));
  let priced = false;
  const withEnv = (runOptions: RunOptions) => {
    if (!priced) world.sandbox.setRates({ 1: '0.000060' });
    priced = true;
    const env = { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: folder, COLUMNS: '400' };
    return { ...runOptions, env: { ...env, ...runOptions.env } };
  };
  return {
    get sandbox() {
      return world.sandbox;
    },
    folder,
    run: (args, runOptions = {}) => world.run(args, withEnv(runOptions)),
    spawn: (args, runOptions = {}) => world.spawn(args, withEnv(runOptions)),
    address(n) {
      const address = freshAddress(n);
      world.sandbox.seedTronAccount(address, { activated: true });
      return address;
    },
  };
}

const ensure = (addresses: string | string[], ...more: string[]) => [
  'ensure',
  ...rentalArgs(addresses, '--yes', ...more),
];
const totals = (world: PricedWorld, addresses: readonly string[]) =>
  world.sandbox
    .orders()
    .filter((order) => addresses.includes(order.address))
    .map((order) => order.total_trx);

describe('ensure --max-spend: every order in the ledger', () => {
  // A rented "hour" lasts 2 s of sandbox time: the addresses need again once the clock moves 3 s on.
  const world = pricedWorld({ hourMs: 2_000 });

  it('8 addresses under 20/1h, then two more runs: 5 orders of 3.9 (19.5 TRX) at the server, all 5 in the ledger', async () => {
    const addresses = Array.from({ length: 8 }, (_, n) => world.address(38_100 + n));
    const first = await world.run(ensure(addresses, '--max-spend', '20/1h', '--json'));
    expect(first.code, first.stderr).toBe(9);
    const items = JSON.parse(first.stdout).items as { reason: string }[];
    expect(items.filter((item) => item.reason === 'bought')).toHaveLength(5);
    expect(items.filter((item) => item.reason === 'spend_limit')).toHaveLength(3);
    // Filed by the run that placed them, four at a time, before any other run could learn them.
    const firstOrders = world.sandbox.orders().filter((order) => addresses.includes(order.address));
    expect(ledgerOf(world.folder).orderIds).toEqual(firstOrders.map((order) => order.id).sort());
    for (const again of [1, 2]) {
      world.sandbox.advance(3_000);
      const result = await world.run(ensure(addresses, '--max-spend', '20/1h', '--json'));
      expect(result.code, `run ${again + 1}: ${result.stderr}`).toBe(5);
    }
    const placed = world.sandbox.orders().filter((order) => addresses.includes(order.address));
    expect(placed.map((order) => order.total_trx)).toEqual(Array(5).fill('3.900000'));
    expect(ledgerOf(world.folder).orderIds).toEqual(placed.map((order) => order.id).sort());
  }, 60_000);

  it('300 addresses in one run under 2000/1h: 300 orders at the server, the same 300 in the ledger', async () => {
    const addresses = Array.from({ length: 300 }, (_, n) => world.address(38_200 + n));
    world.sandbox.setBalance('5000.000000');
    const result = await world.run(ensure(addresses, '--max-spend', '2000/1h', '--json'));
    expect(result.code, result.stderr).toBe(0);
    const placed = world.sandbox.orders().filter((order) => addresses.includes(order.address));
    expect(placed).toHaveLength(300);
    const ledger = ledgerOf(world.folder).orderIds;
    expect(ledger.filter((id) => placed.some((order) => order.id === id))).toEqual(placed.map((o) => o.id).sort());
  }, 180_000);
});

describe('ensure --max-spend: the clock, the window, the ledger shared', () => {
  const world = pricedWorld();

  it('a 1-minute ceiling used beside an 8/1d one prunes nothing the day counts; 25 h on, room returns', async () => {
    const [x, y] = [world.address(38_601), world.address(38_602)];
    const day = (address: string) => world.run(ensure(address, '--max-spend', '8/1d', '--json'));
    const minute = (address: string) => world.run(ensure(address, '--max-spend', '100/1m', '--json'));
    expect((await day(x)).code).toBe(0);
    world.sandbox.advance(2 * HOUR);
    expect((await day(x)).code).toBe(0);
    world.sandbox.advance(2 * HOUR);
    const full = await day(x);
    expect(full.code, full.stderr).toBe(5);
    // Another address, another ceiling on the same account's ledger, an hour and more apart.
    expect((await minute(y)).code).toBe(0);
    world.sandbox.advance(2 * HOUR);
    expect((await minute(y)).code).toBe(0);
    // Every order of the day still counts for 8/1d: 15.6 TRX of it, nothing more for x.
    const still = await day(x);
    expect(still.code, still.stderr).toBe(5);
    expect(JSON.parse(still.stdout).items[0].error.message).toMatch(
      /^3\.900000 TRX would pass --max-spend 8\/1d: 0\.000000 TRX left of 8\.000000; the oldest order counted leaves the window at \S+Z on the API's clock: not ordered$/,
    );
    expect(totals(world, [x])).toEqual(['3.900000', '3.900000']);
    // The day passes for every order counted: room returns.
    world.sandbox.advance(25 * HOUR);
    const later = await day(x);
    expect(later.code, later.stderr).toBe(0);
    expect(totals(world, [x])).toEqual(['3.900000', '3.900000', '3.900000']);
  }, 90_000);

  it('a budget is one ceiling for two API keys naming it; without it each key has its own', async () => {
    const other = await import('../helpers/world.js').then(({ createWorld }) => createWorld({ rateLimit: false }));
    try {
      other.sandbox.setRates({ 1: '0.000060' });
      const [a, b, c] = [world.address(38_701), freshAddress(38_702), freshAddress(38_703)];
      for (const address of [b, c]) other.sandbox.seedTronAccount(address, { activated: true });
      const env = { ENERGY_TRON_NODE: other.sandbox.url, ENERGY_STATE_DIR: world.folder };
      const budget = ['--max-spend', '8/1h', '--budget', 'payouts', '--json'];
      expect((await world.run(ensure(a, ...budget))).code).toBe(0);
      expect((await other.run(ensure(b, ...budget), { env })).code).toBe(0);
      const refused = await other.run(ensure(c, ...budget), { env });
      expect(refused.code, refused.stderr).toBe(5);
      expect(JSON.parse(refused.stdout).items[0].error.message).toMatch(
        /^3\.900000 TRX would pass --max-spend 8\/1h \(budget payouts\): 0\.200000 TRX left of 8\.000000;/,
      );
      expect(other.sandbox.orders()).toHaveLength(1);
      // Its own key's ledger holds only its own order: 4.1 left there, and c is bought.
      const own = await other.run(ensure(c, '--max-spend', '8/1h', '--json'), { env });
      expect(own.code, own.stderr).toBe(0);
      expect(other.sandbox.orders()).toHaveLength(2);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('refuses a ledger that cannot be read (a folder in its place): exit 2, nothing bought', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'energy-ceiling-'));
    const env = { ENERGY_STATE_DIR: stateDir };
    const [a, b] = [world.address(38_801), world.address(38_802)];
    expect((await world.run(ensure(a, '--max-spend', '8/1h'), { env })).code).toBe(0);
    const name = readdirSync(join(stateDir, 'journal')).find((file) => file.endsWith('.ndjson'))!;
    rmSync(join(stateDir, 'journal', name));
    mkdirSync(join(stateDir, 'journal', name));
    const before = world.sandbox.orders().length;
    const result = await world.run(ensure(b, '--max-spend', '8/1h'), { env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `the --max-spend ledger ${join(stateDir, 'journal', name)} cannot be read (it is not a regular file): --max-spend cannot count, nothing ordered`,
    );
    expect(world.sandbox.orders()).toHaveLength(before);
  }, 30_000);

  it('says an order above the whole ceiling is more than it allows in any window, never "reached" (table and JSON)', async () => {
    const address = world.address(38_901);
    const json = await world.run(ensure(address, '--max-spend', '1/1h', '--json'));
    expect(json.code).toBe(5);
    const message = '3.900000 TRX is more than --max-spend 1/1h allows in any window (1.000000 TRX): not ordered';
    expect(JSON.parse(json.stdout).items[0].error.message).toBe(message);
    const table = await world.run(ensure(address, '--max-spend', '1/1h'));
    expect(table.code).toBe(5);
    expect(table.stdout).toContain(`held back by --max-spend: ${message}`);
    expect(table.stdout + table.stderr).not.toContain('reached');
    expect(totals(world, [address])).toEqual([]);
  }, 30_000);

  it('refuses a window under a minute, or under --every, and --budget without --max-spend (exit 2, nothing sent)', async () => {
    const address = world.address(38_902);
    const cases: [string[], RegExp][] = [
      [['--max-spend', '10/1ms'], /the window must be at least 1m/],
      [['--max-spend', '10/30s'], /the window must be at least 1m/],
      [['--max-spend', '10/2m', '--every', '5m'], /--max-spend 10\/2m: its window is shorter than --every/],
      [['--budget', 'payouts'], /--budget names the ledger of --max-spend: give both/],
      [['--max-spend', '10/1h', '--budget', 'no spaces'], /use letters, digits/],
    ];
    const before = world.sandbox.requestCount();
    for (const [flags, said] of cases) {
      const result = await world.run(ensure(address, ...flags));
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stderr).toMatch(said);
    }
    expect(world.sandbox.requestCount()).toBe(before);
  }, 30_000);
});

describe.each([
  ['2 h behind', -7_200],
  ['8 h ahead', 28_800],
])('ensure --max-spend with order stamps %s the API clock', (_label, stampsAheadSeconds) => {
  const world = pricedWorld({ stampsAheadSeconds });

  it("files each order at the run's own measure of the clock: 2 orders under 8/1m, then none, then room a minute on", async () => {
    const [a, b, c] = [world.address(39_001), world.address(39_002), world.address(39_003)];
    const run = (address: string) => world.run(ensure(address, '--max-spend', '8/1m', '--json'));
    expect((await run(a)).code).toBe(0);
    expect((await run(b)).code).toBe(0);
    const refused = await run(c);
    expect(refused.code, refused.stderr).toBe(5);
    expect(totals(world, [a, b, c])).toEqual(['3.900000', '3.900000']);
    world.sandbox.advance(61_000);
    const later = await run(c);
    expect(later.code, later.stderr).toBe(0);
    expect(totals(world, [a, b, c])).toHaveLength(3);
  }, 60_000);
});

describe('ensure --max-spend: refunds and the API not knowing an order', () => {
  const world = pricedWorld({ hourMs: 2_000 });

  it('an order that ended undelivered without a failure object gives its price back: the next run orders again', async () => {
    // Never activated by a delivery: each order is 3.9 + 1.1 activation = 5.0 TRX, one fits under 6.
    const run = () => world.run(ensure(SANDBOX_CANCELLED_ADDRESS, '--max-spend', '6/1h', '--json'));
    expect((await run()).code).toBe(0);
    await until('the order ended', () => world.sandbox.orders()[0]?.lifecycle_final === true);
    expect(world.sandbox.orders()[0]).toMatchObject({ status: 'cancelled', delivery_final: false, failure: null });
    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    expect(totals(world, [SANDBOX_CANCELLED_ADDRESS])).toEqual(['5.000000', '5.000000']);
  }, 30_000);

  it("a 404 for one of the ledger's orders settles it as unknown, kept counted: spend_limit (exit 5), not exit 4; never read again", async () => {
    const address = world.address(39_101);
    // A ledger of its own: the orders of the test before (cancelled meanwhile) are not this one's business.
    const run = () => world.run(ensure(address, '--max-spend', '5/1h', '--budget', 'gone', '--json'));
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const [order] = world.sandbox.orders().filter((o) => o.address === address);
    world.sandbox.advance(3_000);
    const path = `/v1/energy/orders/${order!.id}`;
    world.sandbox.inject({ kind: 'status', status: 404, match: { method: 'GET', path }, times: 100 });
    try {
      const refused = await run();
      expect(refused.code, refused.stderr).toBe(5);
      expect(JSON.parse(refused.stdout).items[0]).toMatchObject({ reason: 'spend_limit', error: { exit_code: 5 } });
      expect(refused.stderr).toContain(
        `the API answered 404 for order ${order!.id}: it stays counted under --max-spend until it leaves the window`,
      );
      const reads = world.sandbox.requestCount(path, 'GET');
      expect(reads).toBeGreaterThanOrEqual(1);
      expect((await run()).code).toBe(5);
      expect(world.sandbox.requestCount(path, 'GET')).toBe(reads);
    } finally {
      world.sandbox.clearFaults();
    }
    expect(totals(world, [address])).toEqual(['3.900000']);
  }, 30_000);
});

describe('ensure --max-spend: a run killed after the server committed its order', () => {
  const world = pricedWorld({ hourMs: 2_000 });

  it('was held before its request left; the next run resends it and files the order: 1 order of 3.9 under 5/1h, not 2', async () => {
    const address = world.address(39_201);
    world.sandbox.inject({ kind: 'hold-after-commit', match: { method: 'POST', path: '/v1/energy/orders' } });
    try {
      const first = world.spawn(ensure(address, '--max-spend', '5/1h'));
      await until('the order is committed', () => world.sandbox.orders().some((order) => order.address === address));
      first.child.kill('SIGKILL');
      await first.result;
    } finally {
      world.sandbox.clearFaults();
    }
    const [order] = world.sandbox.orders().filter((o) => o.address === address);
    // The rental's "hour" passes: the address is short again, and the next run resends the pending request
    // first (the server has its order), then finds the need again: the ledger counts the resent order.
    world.sandbox.advance(3_000);
    const again = await world.run(ensure(address, '--max-spend', '5/1h', '--json'));
    expect(again.stderr).toContain(`was sent again: order ${order!.id} had it`);
    expect(again.code, again.stderr).toBe(5);
    expect(JSON.parse(again.stdout).items[0].error.message).toMatch(
      /^3\.900000 TRX would pass --max-spend 5\/1h: 1\.100000 TRX left/,
    );
    const { lines } = ledgerOf(world.folder);
    expect(lines.filter((line) => line.kind === 'order' && line.order_id === order!.id)).toHaveLength(1);
    expect(totals(world, [address])).toEqual(['3.900000']);
  }, 60_000);
});

describe('ensure --max-spend: a run killed before its request reached the server', () => {
  const world = pricedWorld();

  it('the next run resends it, the server places it then, and the ledger files it then, though that run buys nothing else', async () => {
    const address = world.address(39_211);
    world.sandbox.inject({ kind: 'delay', ms: 60_000, match: { method: 'POST', path: '/v1/energy/orders' } });
    try {
      const first = world.spawn(ensure(address, '--max-spend', '5/1h'));
      await until('its request is journaled', () => {
        try {
          // A whole record: a temporary file (`….tmp`) is not one until it is renamed into place.
          return readdirSync(join(world.folder, 'journal', 'pending')).some((name) => name.endsWith('.json'));
        } catch {
          return false;
        }
      });
      first.child.kill('SIGKILL');
      await first.result;
    } finally {
      world.sandbox.clearFaults();
    }
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(0);
    const resent = await world.run(ensure(address, '--max-spend', '5/1h', '--json'));
    expect(resent.code, resent.stderr).toBe(0);
    const [order] = world.sandbox.orders().filter((o) => o.address === address);
    expect(resent.stderr).toContain(`was sent again: placed now, order ${order!.id}`);
    expect(
      ledgerOf(world.folder).lines.filter((line) => line.kind === 'order' && line.order_id === order!.id),
    ).toHaveLength(1);
  }, 60_000);
});

describe('ensure --max-spend: three services on one state folder', () => {
  // A rented "hour" lasts 1 s of sandbox time: each address needs again about every second.
  const world = pricedWorld({ hourMs: 1_000 });

  it('every order of all three is in the one ledger, once, every line of it whole', async () => {
    world.sandbox.setBalance('5000.000000');
    const sets = [0, 1, 2].map((set) => [0, 1, 2].map((n) => world.address(39_300 + set * 10 + n)));
    const services = sets.map((addresses) =>
      world.spawn(ensure(addresses, '--max-spend', '1000/1h', '--every', '200ms', '--json')),
    );
    const placed = () => world.sandbox.orders().filter((order) => sets.flat().includes(order.address));
    try {
      await until(
        'each service ordered twice for each of its addresses',
        () => sets.every((set) => placed().filter((order) => set.includes(order.address)).length >= 6),
        60_000,
      );
    } finally {
      for (const service of services) service.child.kill('SIGTERM');
    }
    for (const result of await Promise.all(services.map((service) => service.result)))
      expect(result.code, result.stderr).toBe(0);
    const { lines, orderIds } = ledgerOf(world.folder);
    const ids = placed().map((order) => order.id);
    expect(orderIds.filter((id) => ids.includes(id))).toEqual([...ids].sort());
    for (const id of ids) expect(lines.filter((line) => line.kind === 'order' && line.order_id === id)).toHaveLength(1);
  }, 90_000);
});
