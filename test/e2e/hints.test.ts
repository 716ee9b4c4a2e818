/**
 * Hints say what to run next in the user's own context (--profile, --base-url, --json), name the value that
 * is missing, and for a server that cannot be reached, the URL in effect and where it came from.
 */
import { describe, expect, it } from 'vitest';
import { deadUrl } from '../helpers/e2e.js';
import { ADDRESS } from '../helpers/world.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();

const NO_KEYS = { ENERGY_API_KEY: undefined, ENERGY_API_SECRET: undefined };

function hintOf(stderr: string): string {
  return /^hint: (.*)$/m.exec(stderr)?.[1] ?? '';
}

describe('hints carry what the user typed', () => {
  it('a missing key in a named profile: says which value, and the command keeps --profile', async () => {
    const before = world.sandbox.requestCount();
    const set = await world.run(['--profile', 'prod', 'config', 'set', 'base-url', world.env.ENERGY_BASE_URL!], {
      env: { ...NO_KEYS, ENERGY_BASE_URL: undefined },
    });
    expect(set.code).toBe(0);
    const secret = await world.run(['--profile', 'prod', 'config', 'set', 'api-secret'], {
      env: { ...NO_KEYS, ENERGY_BASE_URL: undefined },
      input: 'sk_test\n',
    });
    expect(secret.code).toBe(0);
    const result = await world.run(['--profile', 'prod', 'balance'], {
      env: { ...NO_KEYS, ENERGY_BASE_URL: undefined },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^energy: error: no API key in profile prod$/m);
    expect(hintOf(result.stderr)).toContain('`energy --profile prod config set api-key`');
    expect(hintOf(result.stderr)).not.toContain('api-secret`');
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('adds --base-url and --json to a suggested command', async () => {
    const result = await world.run(['--base-url', world.env.ENERGY_BASE_URL!, '--json', 'balance'], { env: NO_KEYS });
    expect(result.code).toBe(3);
    const error = (JSON.parse(result.stderr) as { error: { hint: string } }).error;
    expect(error.hint).toContain(`\`energy --base-url ${world.env.ENERGY_BASE_URL!} --json config set api-key\``);
  });
});

describe('a server that cannot be reached', () => {
  it('names the base URL in effect, where it came from, and asks whether the sandbox runs', async () => {
    const url = await deadUrl();
    const fromOption = await world.run(['--retries', '0', '--base-url', url, 'balance']);
    expect(fromOption.code).toBe(7);
    expect(fromOption.stderr).toMatch(/connection refused/);
    const hint = hintOf(fromOption.stderr);
    expect(hint).toContain(`check the API base URL ${new URL(url).origin} (from --base-url)`);
    expect(hint).toContain('is the sandbox running?');
    const fromEnv = await world.run(['--retries', '0', 'balance'], { env: { ENERGY_BASE_URL: url } });
    expect(hintOf(fromEnv.stderr)).toContain('(from ENERGY_BASE_URL)');
  });
});

describe('an empty option is refused, as --profile "" is', () => {
  it.each([['--base-url'], ['--tron-node']])('%s ""', async (flag) => {
    const before = world.sandbox.requestCount();
    const result = await world.run([flag, '', 'balance']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^energy: error: ${flag} is empty`, 'm'));
    expect(world.sandbox.requestCount()).toBe(before);
  });
});

describe('NODE_TLS_REJECT_UNAUTHORIZED=0 is refused', () => {
  it.each([[['balance']], [['address', ADDRESS]]])('%s: exit 2, nothing sent, in our words', async (args) => {
    const before = world.sandbox.requestCount();
    const result = await world.run(args, {
      env: { NODE_TLS_REJECT_UNAUTHORIZED: '0', ENERGY_TRON_NODE: world.env.ENERGY_BASE_URL },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^energy: error: NODE_TLS_REJECT_UNAUTHORIZED=0 turns off TLS certificate checks/m);
    expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(world.sandbox.requestCount()).toBe(before);
  });
});

describe('a TRON node on a private address over http', () => {
  it('is stored by config set, while the API base URL stays loopback-only', async () => {
    const node = await world.run(['--profile', 'lan', 'config', 'set', 'tron-node', 'http://10.0.0.5:8090']);
    expect(node.code).toBe(0);
    const api = await world.run(['--profile', 'lan', 'config', 'set', 'base-url', 'http://10.0.0.5:8090']);
    expect(api.code).toBe(2);
    expect(api.stderr).toMatch(/not loopback/);
  });
});

describe('nits (issue 17, item 17)', () => {
  it('option errors in our own words, with the limit and the separator rule', async () => {
    const zero = await world.run(['quote', ADDRESS, '--energy', '0', '--hours', '1']);
    expect(zero.stderr).toMatch(/^energy: error: --energy "0": must be a positive whole number \(1 or more\)$/m);
    const comma = await world.run(['quote', ADDRESS, '--energy', '65,000', '--hours', '1']);
    expect(comma.stderr).toMatch(/^energy: error: --energy "65,000": write it without separators, e\.g\. 65000$/m);
    const timeout = await world.run(['--timeout', '90000', 'balance']);
    expect(timeout.stderr).toMatch(/--timeout "90000": too long: at most 1d$/m);
    for (const result of [zero, comma, timeout]) {
      expect(result.code).toBe(2);
      expect(result.stderr).not.toMatch(/argument '.*' is invalid/);
    }
  });

  it("energy -v prints the version; the root help says how to get a command's help", async () => {
    const version = await world.run(['-v']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const help = await world.run(['--help']);
    expect(help.stdout).toContain('energy help <command>');
  });

  it('completion --json is refused: a script is not a JSON document', async () => {
    const result = await world.run(['--json', 'completion', 'bash']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
  });
});

describe('more nits', () => {
  it('--expected-total 0 is refused before any request', async () => {
    const before = world.sandbox.requestCount();
    const result = await world.run(orderCreateArgs(ADDRESS, '--expected-total', '0'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--expected-total "0": must be more than 0 TRX/);
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('--verbose names no profile when every value came from the environment', async () => {
    const result = await world.run(['--verbose', 'balance']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^energy: environment, no profile, key /m);
    expect(result.stderr).not.toMatch(/profile default/);
  });
});
