/**
 * What a command loads to start: decimal.js (dist/bin/vendor/decimal.cjs) only for commands that do money
 * arithmetic, never for a read such as `balance`, nor for `quote`, whose rent-or-burn figure is integer
 * arithmetic. A static import that pulled it into every command cost `balance` 0.8 MiB and about 10 % of its
 * start (measured): this keeps the bundle's lazy edges where CONTRIBUTING.md's Performance section says they are.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WRAPPED_HEAD, WRAPPED_TAIL } from '../../src/app/bundle-wrapper.js';
import { freshAddress } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';

const RECORD_LOADS = fileURLToPath(new URL('../fixtures/record-loads.cjs', import.meta.url));
const world = worldForSuite();

async function loads(args: string[], env: Record<string, string> = {}, code = 0): Promise<string[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'energy-loads-')), 'loads.txt');
  const result = await world.run(args, {
    env: { NODE_OPTIONS: `--require ${RECORD_LOADS}`, ENERGY_TEST_LOADS_FILE: file, ...env },
  });
  expect(result.code, result.stderr).toBe(code);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe('what a command loads to start', () => {
  it.each([
    ['balance', ['balance', '--json'], 'light.cjs'],
    ['time', ['--profile', 'default', 'time'], 'light.cjs'],
    [
      'quote with a TRON node (rent or burn)',
      ['quote', freshAddress(26_100), '--energy', '65000', '--hours', '1'],
      'main.cjs',
    ],
  ])('%s does not load decimal.js', async (_name, args, bundle) => {
    const files = await loads(args, { ENERGY_TRON_NODE: world.sandbox.url });
    expect(files).toContain(bundle);
    expect(files).not.toContain('vendor/decimal.cjs');
  });

  it('balance and time load the light bundle alone; a command line that is not certainly one of them, the whole program', async () => {
    const light = await loads(['balance']);
    expect(light).toContain('light.cjs');
    expect(light).not.toContain('main.cjs');
    // `--profile balance` names a profile: the command is `config path`, which the light bundle does not have.
    const whole = await loads(['--profile', 'balance', 'config', 'path']);
    expect(whole).toContain('main.cjs');
    expect(whole).not.toContain('light.cjs');
  });

  it.each([
    ['balance', ['balance', '--json']],
    ['time', ['time']],
  ])(
    '%s loads no file of the build but the entry and light.cjs (each more is a text read and kept)',
    async (_name, args) => {
      const files = await loads(args);
      expect(files.filter((file) => !file.startsWith('node:')).sort()).toEqual(['energy.cjs', 'light.cjs']);
    },
  );

  it.each([
    ['balance', ['balance', '--json']],
    ['time', ['--json', 'time']],
  ])('%s loads neither node:fs/promises nor node:perf_hooks (~1 ms of CPU each at start-up)', async (_name, args) => {
    const files = await loads(args);
    expect(files).toContain('node:http');
    expect(files).not.toContain('node:fs/promises');
    expect(files).not.toContain('node:perf_hooks');
  });

  it.each([
    ['balance', ['balance', '--json']],
    ['time', ['time']],
    ['order list', ['order', 'list', '--json']],
  ])(
    "%s does not load the public node:module (0.2-0.3 ms): the code cache takes the entry's own module class",
    async (_name, args) => {
      const files = await loads(args);
      expect(files).toContain('node:vm');
      expect(files).not.toContain('node:module');
    },
  );

  it('order create, which journals its order, loads node:fs/promises (the check can see it)', async () => {
    const args = ['order', 'create', freshAddress(26_103), '--energy', '65000', '--hours', '1', '--yes', '--json'];
    expect(await loads(args)).toContain('node:fs/promises');
  });

  it.each([
    ['balance', ['balance', '--json']],
    ['time', ['time']],
    ['help of a command', ['help', 'balance']],
  ])('%s does not load the help topics', async (_name, args) => {
    expect(await loads(args)).not.toContain('topics.cjs');
  });

  it('`energy help environment` loads the help topics, and nothing of the API client', async () => {
    const files = await loads(['help', 'environment']);
    expect(files).toContain('topics.cjs');
    expect(files).not.toContain('vendor/decimal.cjs');
  });

  it('spend, which sums amounts, does (the check can see it)', async () => {
    expect(await loads(['spend', '--json'])).toContain('vendor/decimal.cjs');
  });
});

/**
 * The state store's driver (dist/bin/vendor/pg.cjs, 85 KB) is loaded only by a command that keeps state and
 * only where a postgresql:// URL is configured: a command that keeps none never loads it, URL or not.
 */
describe('what a command loads for the state store', () => {
  // A socket nobody listens on: a command that opens the store fails (exit 11) having loaded the driver.
  const stateUrl = { ENERGY_STATE_URL: `postgresql://energy@/energy?host=${tmpdir()}/energy-no-server` };

  it.each([
    ['balance', ['balance', '--json']],
    ['time', ['time']],
    ['quote', ['quote', freshAddress(26_101), '--energy', '65000', '--hours', '1']],
  ])('%s with a state URL configured does not load pg', async (_name, args) => {
    const files = await loads(args, stateUrl);
    // The program ran (balance and time from the light bundle, quote from the whole one), and pg stayed out.
    expect(files.filter((file) => file === 'main.cjs' || file === 'light.cjs')).toHaveLength(1);
    expect(files).not.toContain('vendor/pg.cjs');
  });

  it('order create without a state URL does not load pg', async () => {
    const files = await loads(['order', 'create', freshAddress(26_102), '--energy', '65000', '--hours', '1', '--yes']);
    expect(files).not.toContain('vendor/pg.cjs');
  });

  it('order pending with one does (the check can see it)', async () => {
    expect(await loads(['order', 'pending'], stateUrl, 11)).toContain('vendor/pg.cjs');
  });

  it('order pending with one loads not the moving-in check, nor the folder ledgers and node:fs/promises it reads', async () => {
    expect(await loads(['order', 'pending', '--json'], stateUrl, 11)).not.toContain('node:fs/promises');
  });

  it('order pending with one loads pg but not decimal.js (the ledger loads it when a ceiling is asked for)', async () => {
    const files = await loads(['order', 'pending', '--json'], stateUrl, 11);
    expect(files).toContain('vendor/pg.cjs');
    expect(files).not.toContain('vendor/decimal.cjs');
  });

  it('order pending with one over a socket loads pg but not node:dns (pg wants it only for its native driver)', async () => {
    const files = await loads(['order', 'pending', '--json'], stateUrl, 11);
    expect(files).toContain('vendor/pg.cjs');
    expect(files).not.toContain('node:dns');
  });

  it('order pending with one loads pg and its URL parser as one file (a second was its own read, cache and compile)', async () => {
    const files = await loads(['order', 'pending', '--json'], stateUrl, 11);
    expect(files.filter((file) => file.startsWith('vendor/'))).toEqual(['vendor/pg.cjs']);
  });

  it('order pending with one loads pg but not node:os (the host name, for application_name, is read from /proc)', async () => {
    const files = await loads(['order', 'pending', '--json'], stateUrl, 11);
    expect(files).toContain('vendor/pg.cjs');
    expect(files).toContain('node:net');
    expect(files).not.toContain('node:os');
  });

  it("order pending with one loads pg but not Node's Web Crypto (pg's helpers of scram and md5 logins take it)", async () => {
    const files = await loads(['order', 'pending', '--json'], stateUrl, 11);
    expect(files).toContain('vendor/pg.cjs');
    // The session was tried (the server is not there), so pg's client was loaded and made.
    expect(files).toContain('node:net');
    expect(files).not.toContain('node:internal/crypto/webcrypto');
  });
});

/**
 * The files the entry loads through the code cache are written wrapped (src/app/bundle-wrapper.ts), so that the
 * cache compiles their text as read: CommonJS's wrapper joined at run time made a second copy of it (light.cjs:
 * 72 KB more of `balance`'s young generation). Still plain CommonJS to Node's own require.
 */
describe('the files of the build', () => {
  const bin = fileURLToPath(new URL('../../dist/bin/', import.meta.url));
  const built = (name: string) => readFileSync(join(bin, name), 'utf8');

  it.each(['main.cjs', 'light.cjs', 'sandbox.cjs', 'topics.cjs', 'vendor/pg.cjs', 'vendor/decimal.cjs'])(
    '%s is wrapped',
    (name) => {
      expect(built(name).startsWith(WRAPPED_HEAD)).toBe(true);
      expect(built(name).endsWith(WRAPPED_TAIL)).toBe(true);
    },
  );

  it('the entry, which Node itself loads, is not', () => {
    expect(built('energy.cjs').startsWith(WRAPPED_HEAD)).toBe(false);
  });

  it("Node's require of a wrapped file gets its exports", () => {
    const required = createRequire(import.meta.url);
    expect(typeof (required(join(bin, 'light.cjs')) as { run: unknown }).run).toBe('function');
    expect(String(new (required(join(bin, 'vendor/decimal.cjs')) as new (n: string) => object)('1.50'))).toBe('1.5');
  });
});
