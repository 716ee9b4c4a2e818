/**
 * A FIFO (a named pipe nobody writes to) in place of a file of the state or config folders: the spend ledger,
 * `ensure.lock`, a pending record, `config.json`, the clock-offset file. A blocking open() or read() of one
 * waits for a writer for ever, in the main thread or libuv's thread pool, where SIGTERM cannot end it (it
 * printed "stopping now" and stayed until SIGKILL). Each is opened non-blocking and read only when it is a
 * regular file: the run ends on its own, with what it says about the file. Each run is killed (SIGKILL) if it
 * has not ended within 20 s: a bound on a hang, not a timing (each takes well under a second here).
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { freshAddress } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { tempDirForSuite, worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });
const root = tempDirForSuite('energy-fifo-');

/** A FIFO at `path` (mode 0600, as energy's own files), replacing what is there. */
function fifoAt(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Nothing there yet.
  }
  execFileSync('mkfifo', ['-m', '600', path]);
  expect(lstatSync(path).isFIFO()).toBe(true);
}

/** A run in its own config and state folders, killed after 20 s if it hangs (then its code is 137). */
async function runBounded(
  args: string[],
  folders: { config: string; state: string },
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  const running = world.spawn(args, {
    env: {
      ENERGY_CONFIG_DIR: folders.config,
      ENERGY_STATE_DIR: folders.state,
      ENERGY_TRON_NODE: world.sandbox.url,
      ...env,
    },
  });
  const killer = setTimeout(() => running.child.kill('SIGKILL'), 20_000);
  const result = await running.result.finally(() => clearTimeout(killer));
  expect(result.code, `blocked until killed? ${result.stderr}`).not.toBe(137);
  return result;
}

let made = 0;
function folders(): { config: string; state: string } {
  made += 1;
  const base = join(root.path, `run-${made}`);
  const config = join(base, 'config');
  const state = join(base, 'state');
  mkdirSync(config, { recursive: true, mode: 0o700 });
  mkdirSync(join(state, 'journal', 'pending'), { recursive: true, mode: 0o700 });
  return { config, state };
}

it('config.json a FIFO: balance says it is a named pipe, exit 2, nothing hangs', async () => {
  const at = folders();
  fifoAt(join(at.config, 'config.json'));
  // No credentials in the environment: the profile is read from the file.
  const result = await runBounded(['balance'], at, { ENERGY_API_KEY: undefined, ENERGY_API_SECRET: undefined });
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain('a named pipe, not a regular file');
}, 60_000);

it('the clock-offset file a FIFO: balance works (the offset is only an optimisation)', async () => {
  const at = folders();
  fifoAt(join(at.config, 'clock-offset.json'));
  const before = world.sandbox.requestCount('/v1/balance');
  const result = await runBounded(['balance', '--json'], at);
  expect(result.code, result.stderr).toBe(0);
  expect(world.sandbox.requestCount('/v1/balance')).toBe(before + 1);
}, 60_000);

it('a pending record a FIFO: order pending names it unreadable (a named pipe), nothing hangs', async () => {
  const at = folders();
  const record = join(at.state, 'journal', 'pending', 'k-0123456789abcdef.json');
  fifoAt(record);
  const result = await runBounded(['order', 'pending'], at);
  expect(result.stdout + result.stderr).toContain(record);
  expect(result.stdout + result.stderr).toContain('a named pipe, not a regular file');
}, 60_000);

it('ensure.lock a FIFO: ensure takes it over as a lock no process holds, and buys once', async () => {
  const at = folders();
  fifoAt(join(at.state, 'journal', 'ensure.lock'));
  const address = freshAddress(46_701);
  const result = await runBounded(['ensure', ...rentalArgs(address, '--yes')], at);
  expect(result.code, result.stderr).toBe(0);
  expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);
}, 60_000);

it('the --max-spend ledger a FIFO: ensure refuses it as unreadable, exit 2, nothing ordered', async () => {
  const at = folders();
  const first = freshAddress(46_702);
  const bought = await runBounded(['ensure', ...rentalArgs(first, '--yes', '--max-spend', '50/24h')], at);
  expect(bought.code, bought.stderr).toBe(0);
  const journal = join(at.state, 'journal');
  const ledgers = readdirSync(journal).filter((name) => /^spend-[0-9a-f]{16}\.ndjson$/.test(name));
  expect(ledgers).toHaveLength(1);
  fifoAt(join(journal, ledgers[0]!));
  const second = freshAddress(46_703);
  const result = await runBounded(['ensure', ...rentalArgs(second, '--yes', '--max-spend', '50/24h')], at);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain('not a regular file');
  expect(world.sandbox.orders().filter((order) => order.address === second)).toHaveLength(0);
}, 60_000);
