/** `energy address` and `energy estimate transfer` against the sandbox's TRON node, spawned for real. */
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, type RunOptions } from '../helpers/cli.js';
import { allDelivered, deadUrl, expectNoStackTrace, freshAddress } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const HOLDER = freshAddress(9001);
const RECIPIENT = freshAddress(9002);
const EMPTY = freshAddress(9003);
const BIG = freshAddress(9004);
const CONTRACT = freshAddress(9005);
const TRON_KEY = 'tron-key-Zq8vXw2LmN4pR7tY9uB3';

const world = worldForSuite({
  tronAccounts: {
    [HOLDER]: { energy: 65_000, energyUsed: 20_000, bandwidthUsed: 270, usdt: 5_000_000n },
    [RECIPIENT]: { usdt: 1n },
    [BIG]: { usdt: 2n ** 53n },
  },
});
afterEach(() => world.sandbox.clearFaults());

/** Runs with the sandbox as the TRON node (and as the API, with credentials, unless the env says otherwise). */
const run = (args: string[], options: RunOptions = {}) =>
  world.run(args, { ...options, env: { ENERGY_TRON_NODE: world.sandbox.url, ...options.env } });
const tronCount = () => world.sandbox.tronRequests().length;
/** `estimate transfer --from FROM --to TO`, then `more`. */
const estimate = (from: string, to: string, ...more: string[]) => [
  'estimate',
  'transfer',
  '--from',
  from,
  '--to',
  to,
  ...more,
];
const ESTIMATE = estimate(HOLDER, RECIPIENT);

describe('energy address', () => {
  it('prints the contract fields as JSON, available = limit − used', async () => {
    const before = tronCount();
    const result = await run(['address', HOLDER, '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({
      address: HOLDER,
      activated: true,
      energy_available: 45_000,
      energy_limit: 65_000,
      energy_used: 20_000,
      bandwidth_available: 330,
      contract: false,
    });
    // getaccountresource (it answers {} for an account that does not exist), then getaccount: a contract?
    expect(
      world.sandbox
        .tronRequests()
        .slice(before)
        .map((r) => r.path),
    ).toEqual(['/wallet/getaccountresource', '/wallet/getaccount']);
  });

  it('prints a key/value block', async () => {
    const result = await run(['address', HOLDER]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Activated\s+yes$/m);
    expect(result.stdout).toMatch(/^Energy available\s+45,000$/m);
    expect(result.stdout).toMatch(/^Bandwidth available\s+330$/m);
  });

  it('an address the node answers {} for is not activated, with zeros', async () => {
    const result = await run(['address', EMPTY, '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({
      address: EMPTY,
      activated: false,
      energy_available: 0,
      energy_limit: 0,
      energy_used: 0,
      bandwidth_available: 0,
      contract: false,
    });
  });

  it('says a contract is one: USDT known without asking the node, another by its getaccount', async () => {
    const before = tronCount();
    const usdt = await run(['address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t']);
    expect(usdt.code).toBe(0);
    expect(usdt.stdout).toMatch(/^Contract\s+yes$/m);
    expect(usdt.stderr).toMatch(/is a smart contract: TRON does not delegate energy to contract accounts/);
    expect(usdt.stderr).not.toMatch(/not activated/);
    expect(tronCount() - before).toBe(1);
    world.sandbox.seedTronAccount(CONTRACT, { contract: true });
    expect(json(await run(['address', CONTRACT, '--json']))).toMatchObject({ address: CONTRACT, contract: true });
  });

  it('shows a rental once delivered', async () => {
    const address = freshAddress(9010);
    const order = await run(['order', 'create', address, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(order.code).toBe(0);
    await allDelivered(world);
    const result = await run(['address', address, '--json']);
    expect(json(result)).toMatchObject({ activated: true, energy_limit: 65_000, energy_available: 65_000 });
  });

  it('refuses a bad address before any request (exit 2)', async () => {
    const before = tronCount();
    const result = await run(['address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/checksum/);
    expect(tronCount()).toBe(before);
  });
});

describe('energy estimate transfer', () => {
  it('prints energy_used and the amount to rent rounded up to the portion', async () => {
    const result = await run([...ESTIMATE, '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({
      from: HOLDER,
      to: RECIPIENT,
      token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      amount: '1',
      energy_used: 64_285,
      energy_penalty: 0,
      energy_to_rent: 65_000,
      energy_per_portion: 1_000,
      // 64,285 energy at the sandbox node's getEnergyFee of 100 sun.
      burn_trx: '6.428500',
    });
  });

  it('says what burning the energy would cost at the price the node reads now (210 sun), in the table too', async () => {
    world.sandbox.setEnergyFee(210);
    try {
      const asJson = await run(estimate(HOLDER, EMPTY, '--json'));
      expect(json(asJson)).toMatchObject({ energy_used: 130_285, burn_trx: '27.359850' });
      const table = await run(estimate(HOLDER, EMPTY));
      expect(table.stdout).toMatch(/^Burn instead +27\.359850 TRX$/m);
    } finally {
      world.sandbox.setEnergyFee(100);
    }
  });

  it('a node whose chain parameters cannot be read gives the estimate with a note and burn_trx null', async () => {
    world.sandbox.inject({ kind: 'status', status: 500, match: { path: '/wallet/getchainparameters' }, times: 10 });
    const result = await run([...ESTIMATE, '--json', '--retries', '0']);
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ energy_used: 64_285, burn_trx: null });
    expect(result.stderr).toMatch(/price of burning energy is unknown/);
  });

  it('to an address without USDT needs the new-slot figure', async () => {
    const result = await run(estimate(HOLDER, EMPTY, '--amount', '1000000', '--json'));
    expect(json(result)).toMatchObject({ energy_used: 130_285, energy_to_rent: 131_000, amount: '1000000' });
  });

  it('without API credentials it does not round and asks the API nothing', async () => {
    const before = world.sandbox.requestCount('/v1/energy/options');
    const env = { ...baseEnv(world.configDir), ENERGY_TRON_NODE: world.sandbox.url };
    const result = await world.run([...ESTIMATE, '--json'], {
      env: { ...env, ENERGY_BASE_URL: undefined, ENERGY_API_KEY: undefined, ENERGY_API_SECRET: undefined },
    });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ energy_used: 64_285, energy_to_rent: 64_285, energy_per_portion: null });
    expect(world.sandbox.requestCount('/v1/energy/options')).toBe(before);
  });

  it('a reverting simulation is exit 2 with its own message, not a network failure', async () => {
    const result = await run(estimate(EMPTY, RECIPIENT));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^energy: error: the simulated transfer reverts: REVERT opcode executed$/m);
    expect(result.stderr).toMatch(/hold at least 1 unit of /);
    expect(result.stdout).toBe('');
    expectNoStackTrace(result);
  });

  it('a live-shaped revert (result.result true) is never printed as an estimate, also with --json', async () => {
    const before = tronCount();
    const result = await run(estimate(EMPTY, RECIPIENT, '--json'));
    expect(tronCount() - before).toBe(1);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toMatch(/energy_used/);
    expect(result.stdout + result.stderr).not.toContain('8624');
  });

  it('keeps amounts beyond 2^53 exact (a JavaScript number would round 2^53 + 1 down and not revert)', async () => {
    const exact = await run(estimate(BIG, RECIPIENT, '--amount', String(2n ** 53n), '--json'));
    expect(exact.code).toBe(0);
    expect(json(exact).amount).toBe('9007199254740992');
    const over = await run(estimate(BIG, RECIPIENT, '--amount', String(2n ** 53n + 1n)));
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/reverts/);
  });

  it.each([['-1'], ['1.5'], ['1e6'], [String(2n ** 256n)]])('refuses --amount %s (exit 2)', async (amount) => {
    const before = tronCount();
    const result = await run([...ESTIMATE, '--amount', amount]);
    expect(result.code).toBe(2);
    expect(tronCount()).toBe(before);
  });
});

describe('a TRON node that misbehaves', () => {
  it('an HTML page is exit 7 with one clear line', async () => {
    world.sandbox.inject({
      kind: 'raw',
      status: 200,
      contentType: 'text/html',
      body: '<!DOCTYPE html><html>Login</html>',
      match: { path: '/wallet/getaccountresource' },
    });
    const result = await run(['address', HOLDER]);
    expect(result.code).toBe(7);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      /^energy: error: TRON node http:\/\/127\.0\.0\.1:\d+ POST \/wallet\/getaccountresource answered HTTP 200 with an HTML page, not JSON/,
    );
    expect(lines).toHaveLength(1);
    expectNoStackTrace(result);
  });

  it('rides out a 429 and a reset, counting the requests', async () => {
    const path = '/wallet/getaccountresource';
    world.sandbox.inject({ kind: 'status', status: 429, retryAfter: '0', match: { path } });
    world.sandbox.inject({ kind: 'drop', match: { path } });
    const before = world.sandbox.requestCount(path);
    const result = await run(['address', HOLDER, '--json', '--verbose']);
    expect(result.code).toBe(0);
    expect(json(result).activated).toBe(true);
    expect(world.sandbox.requestCount(path) - before).toBe(3);
    expect(result.stderr).toMatch(/POST \/wallet\/getaccountresource: HTTP 429; retrying in 0\.0 s/);
  });

  it('a 429 that outlasts the retries is exit 6 with the key hint', async () => {
    world.sandbox.inject({
      kind: 'status',
      status: 429,
      retryAfter: '0',
      times: 10,
      match: { path: '/wallet/getaccountresource' },
    });
    const result = await run(['address', HOLDER, '--retries', '1']);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/tron-api-key/);
  });

  it('an unreachable node is exit 7', async () => {
    const result = await run(['address', HOLDER, '--tron-node', await deadUrl(), '--retries', '0']);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/connection refused/);
  });
});

describe('the TRON node settings', () => {
  it('--tron-node beats ENERGY_TRON_NODE, and http:// off loopback is refused before any request', async () => {
    const before = world.sandbox.requestCount();
    const result = await run(['address', HOLDER, '--tron-node', 'http://nile.trongrid.io']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/TRON node URL http:\/\/nile\.trongrid\.io uses http:\/\//);
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('sends ENERGY_TRON_API_KEY as TRON-PRO-API-KEY and never prints it, even with --verbose', async () => {
    const before = tronCount();
    const result = await run(['address', HOLDER, '--verbose'], { env: { ENERGY_TRON_API_KEY: TRON_KEY } });
    expect(result.code).toBe(0);
    const sent = world.sandbox.tronRequests().slice(before);
    expect(sent.map((r) => r.apiKey)).toEqual([TRON_KEY, TRON_KEY]);
    expect(result.stdout + result.stderr).not.toContain(TRON_KEY);
    expect(result.stderr).toContain(`TRON-PRO-API-KEY: ****${TRON_KEY.slice(-2)}`);
  });

  it('config refuses tron-api-key on the command line, takes it from stdin, shows it masked and uses it', async () => {
    const refused = await run(['config', 'set', 'tron-api-key', TRON_KEY]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing tron-api-key/);
    expect(refused.stderr).not.toContain(TRON_KEY);
    const set = await run(['config', 'set', 'tron-api-key'], { input: `${TRON_KEY}\n` });
    expect(set.code).toBe(0);
    const list = await run(['config', 'list', '--json']);
    expect(list.stdout).not.toContain(TRON_KEY);
    expect(json<{ settings: { name: string; value: string }[] }>(list).settings).toContainEqual({
      name: 'tron-api-key',
      value: `****${TRON_KEY.slice(-2)}`,
      source: 'profile',
    });
    const before = tronCount();
    expect((await run(['address', HOLDER])).code).toBe(0);
    expect(
      world.sandbox
        .tronRequests()
        .slice(before)
        .map((r) => r.apiKey),
    ).toEqual([TRON_KEY, TRON_KEY]);
    expect((await run(['config', 'unset', 'tron-api-key'])).code).toBe(0);
  });

  it('a TRON key that cannot go in a header is refused in one line (exit 3), never sent nor printed', async () => {
    const before = tronCount();
    const result = await run(['address', HOLDER], { env: { ENERGY_TRON_API_KEY: 'tron-key-with\nline-break-0000' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/tron-api-key contains a line break .* \(from the ENERGY_TRON_API_KEY variable\)/);
    expect(result.stderr).not.toContain('line-break-0000');
    expect(tronCount()).toBe(before);
    const stored = await run(['config', 'set', 'tron-api-key'], { input: 'two words\n' });
    expect(stored.code).toBe(2);
    expect(stored.stderr).toMatch(/tron-api-key contains a space/);
  });

  it('config set tron-node checks the URL rule and stores it', async () => {
    expect((await run(['config', 'set', 'tron-node', 'http://example.com'])).code).toBe(2);
    const set = await run(['config', 'set', 'tron-node', 'https://nile.trongrid.io/']);
    expect(set.code).toBe(0);
    expect((await run(['config', 'get', 'tron-node'])).stdout).toBe('https://nile.trongrid.io\n');
    expect((await run(['config', 'unset', 'tron-node'])).code).toBe(0);
  });
});
