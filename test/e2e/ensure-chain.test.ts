/**
 * `energy ensure` and what the chain says, spawned for real against the sandbox (API and TRON node on one port):
 * one node read per address that has enough, `--transfers` sized from the node's simulation, contract receivers
 * refused before any quote, bandwidth, and drift within --tolerance. Every claim is counted at the server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CliResult, RunOptions } from '../helpers/cli.js';
import { expectNoStackTrace, freshAddress } from '../helpers/e2e.js';
import { json } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';

interface Item {
  address: string;
  available: number;
  target: number;
  reason: string;
  to_buy: number;
  total_trx: string | null;
  error: { exit_code: number; message: string } | null;
  per_transfer?: number | null;
  bandwidth_short?: boolean;
}
const items = (result: CliResult) => json<{ items: Item[] }>(result).items;

const RICH = [1, 2, 3, 4, 5].map((n) => freshAddress(14_000 + n));
const SHORT = freshAddress(14_010);
const CONTRACT = freshAddress(14_011);
const HOLDER = freshAddress(14_012);
const RECIPIENT = freshAddress(14_013);
const NO_TOKENS = freshAddress(14_014);
const NO_FREE_BANDWIDTH = freshAddress(14_015);
const DRIFTED = freshAddress(14_016);
const SENDER = freshAddress(14_017);

const world = worldForSuite({
  tronAccounts: {
    ...Object.fromEntries(RICH.map((address) => [address, { energy: 65_000 }])),
    [SHORT]: { energy: 1_000 },
    [CONTRACT]: { contract: true },
    [HOLDER]: { usdt: 5_000_000n },
    [RECIPIENT]: { usdt: 1n },
    [NO_TOKENS]: {},
    [NO_FREE_BANDWIDTH]: { usdt: 5_000_000n, bandwidthUsed: 600 },
    [DRIFTED]: { energy: 64_990 },
    [SENDER]: { usdt: 5_000_000n },
  },
});
afterEach(() => world.sandbox.setEnergyDrift(0));

const ensure = (args: string[], options: RunOptions = {}) =>
  world.run(['ensure', ...args], { ...options, env: { ENERGY_TRON_NODE: world.sandbox.url, ...options.env } });
const apiRequests = () =>
  ['/v1/energy/options', '/v1/energy/quotes', '/v1/energy/orders']
    .map((path) => world.sandbox.requestCount(path))
    .reduce((a, b) => a + b, 0);
/** The TRON node paths a run asked for, from `before` on. */
const tronPaths = (before: number) =>
  world.sandbox
    .tronRequests()
    .slice(before)
    .map((r) => r.path);

describe('node reads', () => {
  it('one getaccountresource per address that has enough, and nothing else', async () => {
    const before = world.sandbox.tronRequests().length;
    const api = apiRequests();
    const result = await ensure([...RICH, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(0);
    expect(items(result).map((item) => item.reason)).toEqual(Array(5).fill('enough'));
    expect(tronPaths(before)).toEqual(Array(5).fill('/wallet/getaccountresource'));
    expect(apiRequests()).toBe(api);
  });

  it('getaccount only for the address it would buy for', async () => {
    const before = world.sandbox.tronRequests().length;
    const result = await ensure([
      ...RICH.slice(0, 2),
      SHORT,
      '--energy',
      '65000',
      '--hours',
      '1',
      '--dry-run',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(items(result).map((item) => item.reason)).toEqual(['enough', 'enough', 'would_buy']);
    const paths = tronPaths(before);
    expect(paths.filter((path) => path === '/wallet/getaccount')).toHaveLength(1);
    // Each once, then the short one read again after counting what is in flight.
    expect(paths.filter((path) => path === '/wallet/getaccountresource')).toHaveLength(4);
  });
});

describe('a receiver that cannot get energy', () => {
  it('a contract account is refused before any quote: exit 2, saying why, nothing asked of the API', async () => {
    const api = apiRequests();
    const orders = world.sandbox.orders().length;
    const result = await ensure([CONTRACT, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(2);
    expect(items(result)[0]).toMatchObject({ reason: 'failed', error: { exit_code: 2 } });
    expect(items(result)[0]!.error!.message).toMatch(/is a smart contract: TRON does not delegate energy to contract/);
    expect(apiRequests()).toBe(api);
    expect(world.sandbox.orders()).toHaveLength(orders);
  });

  it('beside an address that can: exit 9, one quote and one order, for the other', async () => {
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const other = freshAddress(14_020);
    const result = await ensure([CONTRACT, other, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(9);
    expect(items(result).map((item) => item.reason)).toEqual(['failed', 'bought']);
    expect(world.sandbox.requestCount('/v1/energy/quotes') - quotes).toBe(1);
    expect(world.sandbox.orders().filter((order) => order.address === CONTRACT)).toHaveLength(0);
  });
});

describe('--transfers', () => {
  const dryRun = (args: string[]) => ensure([...args, '--hours', '1', '--dry-run', '--json']);

  it('n transfers to a recipient holding none of the token (the default), rounded up to the portion', async () => {
    const before = world.sandbox.tronRequests().length;
    const result = await dryRun([HOLDER, '--transfers', '2']);
    expect(result.code).toBe(0);
    expect(items(result)[0]).toMatchObject({
      per_transfer: 130_285,
      target: 260_570,
      to_buy: 261_000,
      reason: 'would_buy',
      bandwidth_short: true,
    });
    expect(tronPaths(before).filter((path) => path === '/wallet/triggerconstantcontract')).toHaveLength(1);
  });

  it('--to a holder costs the cheaper transfer', async () => {
    const result = await dryRun([HOLDER, '--transfers', '2', '--to', RECIPIENT]);
    expect(items(result)[0]).toMatchObject({ per_transfer: 64_285, target: 128_570, to_buy: 129_000 });
  });

  it('buys the rounded need once: a run right after counts the order and buys nothing', async () => {
    const args = [SENDER, '--transfers', '1', '--to', RECIPIENT, '--hours', '1', '--yes', '--json'];
    const first = await ensure(args);
    expect(first.code).toBe(0);
    expect(items(first)[0]).toMatchObject({ per_transfer: 64_285, to_buy: 65_000, reason: 'bought' });
    const again = await ensure(args);
    expect(again.code).toBe(0);
    expect(['in_flight', 'enough']).toContain(items(again)[0]!.reason);
    expect(
      world.sandbox
        .orders()
        .filter((order) => order.address === SENDER)
        .map((order) => order.energy),
    ).toEqual([65_000]);
  });

  it('an address holding none of the token fails its item with exit 2, and nothing is quoted', async () => {
    const api = apiRequests();
    const result = await ensure([NO_TOKENS, '--transfers', '1', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(2);
    expect(items(result)[0]).toMatchObject({ reason: 'failed', per_transfer: null, error: { exit_code: 2 } });
    expect(items(result)[0]!.error!.message).toMatch(
      /cannot send TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t: a transfer of 1 unit from it reverts: REVERT opcode executed; does it hold any\?/,
    );
    expect(apiRequests()).toBe(api);
    expectNoStackTrace(result);
  });

  it('an address with no account on chain fails without a simulation', async () => {
    const before = world.sandbox.tronRequests().length;
    const result = await ensure([freshAddress(14_040), '--transfers', '1', '--hours', '1', '--yes', '--json']);
    expect(result.code).toBe(2);
    expect(items(result)[0]!.error!.message).toMatch(/has no account on chain, so it holds none/);
    expect(tronPaths(before)).toEqual(['/wallet/getaccountresource']);
  });

  it('the table says when bandwidth is short', async () => {
    const result = await ensure([NO_FREE_BANDWIDTH, '--transfers', '1', '--hours', '1', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/would buy; bandwidth short$/m);
  });

  it('bandwidth: the free 600 pays for one transfer; more, or none left, is bandwidth_short with a note', async () => {
    const one = await dryRun([HOLDER, '--transfers', '1']);
    expect(items(one)[0]).toMatchObject({ bandwidth_short: false });
    expect(one.stderr).not.toMatch(/bandwidth/);
    const none = await dryRun([NO_FREE_BANDWIDTH, '--transfers', '1']);
    expect(items(none)[0]).toMatchObject({ bandwidth_short: true });
    expect(none.stderr).toMatch(/its bandwidth pays for 0 of 1 transfers .* burns about 0\.35 TRX for bandwidth/);
  });

  it.each([
    [['--energy', '65000', '--transfers', '1'], /cannot be used with/],
    [[], /give the target: --energy <n> or --transfers <n>/],
    [['--energy', '65000', '--to', RECIPIENT], /--to goes with --transfers/],
  ])('%j is exit 2 before any request', async (args, message) => {
    const before = world.sandbox.requestCount();
    const result = await ensure([HOLDER, ...args, '--hours', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(world.sandbox.requestCount()).toBe(before);
  });
});

describe('drift', () => {
  it('a shortfall within the default 1% buys nothing and asks the API nothing; --tolerance 0 buys', async () => {
    const api = apiRequests();
    const tolerated = await ensure([DRIFTED, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(tolerated.code).toBe(0);
    expect(items(tolerated)[0]).toMatchObject({ available: 64_990, reason: 'within_tolerance', to_buy: 0 });
    expect(apiRequests()).toBe(api);
    const exact = await ensure([
      DRIFTED,
      '--energy',
      '65000',
      '--hours',
      '1',
      '--tolerance',
      '0',
      '--dry-run',
      '--json',
    ]);
    expect(items(exact)[0]).toMatchObject({ reason: 'would_buy', to_buy: 1_000 });
  });

  it('--wait confirms a delivery that reads a fraction of a percent short', async () => {
    world.sandbox.setEnergyDrift(20); // 65,000 reads 64,870
    const address = freshAddress(14_030);
    const result = await ensure([address, '--energy', '65000', '--hours', '1', '--yes', '--wait', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(items(result)[0]).toMatchObject({ reason: 'bought', available: 0, available_after: 64_870 });
  });

  it.each([['-1'], ['50'], ['1.234'], ['x']])('--tolerance %s is exit 2', async (value) => {
    const result = await ensure([DRIFTED, '--energy', '65000', '--hours', '1', '--tolerance', value]);
    expect(result.code).toBe(2);
  });
});

describe('quote and order create refuse a contract receiver before any quote', () => {
  const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const withNode = () => ({ env: { ENERGY_TRON_NODE: world.sandbox.url } });
  const quotes = () => world.sandbox.requestCount('/v1/energy/quotes');

  it.each([
    [['quote', USDT, '--energy', '65000', '--hours', '1']],
    [['order', 'create', USDT, '--energy', '65000', '--hours', '1', '--yes']],
  ])('the USDT contract: %j is exit 2 without a single request', async (args) => {
    const before = world.sandbox.requestCount();
    const result = await world.run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is a smart contract: TRON does not delegate energy to contract accounts/);
    expect(world.sandbox.requestCount()).toBe(before);
    expectNoStackTrace(result);
  });

  it('a contract the node types as such, with a TRON node configured: no quote, no order', async () => {
    const [q, orders, tron] = [quotes(), world.sandbox.orders().length, world.sandbox.tronRequests().length];
    const quote = await world.run(['quote', CONTRACT, '--energy', '65000', '--hours', '1'], withNode());
    const create = await world.run(
      ['order', 'create', CONTRACT, '--energy', '65000', '--hours', '1', '--yes', '--json'],
      withNode(),
    );
    expect([quote.code, create.code]).toEqual([2, 2]);
    expect(create.stdout).not.toMatch(/"id"/);
    expect(quotes()).toBe(q);
    expect(world.sandbox.orders()).toHaveLength(orders);
    expect(tronPaths(tron)).toEqual(['/wallet/getaccount', '/wallet/getaccount']);
  });

  it('an ordinary address is quoted after one getaccount (and the price of burning); without a configured node, nothing is asked', async () => {
    const tron = world.sandbox.tronRequests().length;
    const checked = await world.run(['quote', RECIPIENT, '--energy', '65000', '--hours', '1', '--json'], withNode());
    expect(checked.code).toBe(0);
    expect(tronPaths(tron)).toEqual(['/wallet/getaccount', '/wallet/getchainparameters']);
    const unchecked = await world.run(['quote', RECIPIENT, '--energy', '65000', '--hours', '1', '--json']);
    expect(unchecked.code).toBe(0);
    expect(tronPaths(tron)).toHaveLength(2);
  });
});
