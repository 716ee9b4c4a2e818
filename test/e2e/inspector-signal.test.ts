/**
 * SIGUSR1 never opens Node's inspector (issue 40): by default Node answers it by listening for a debugger on
 * 127.0.0.1:9229, which any local user could then attach to a process holding the API secret. The entry
 * takes the signal itself (every command; the service is the one that lives long): it says so on stderr
 * (one JSON object with --json) and goes on; Node's "Debugger listening" never appears.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { freshAddress, httpGet, metricsUrl, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });
/** What Node prints when SIGUSR1 starts its inspector (or fails to, the port taken). */
const INSPECTOR = /Debugger listening|Starting inspector/;

it('ensure --every: SIGUSR1 is taken and said, the inspector stays closed, the service goes on', async () => {
  const address = freshAddress(40_101);
  const running = world.spawn(
    ['ensure', ...rentalArgs(address, '--yes', '--every', '1h'), '--json', '--metrics', '0'],
    {
      env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-usr1-')) },
    },
  );
  // A failed test leaves no service behind (with its inspector perhaps open).
  onTestFinished(() => void running.child.kill('SIGKILL'));
  const url = await metricsUrl(running);
  await until('the first cycle', () => running.output().stdout.includes('"cycle":1'), 20_000);
  running.child.kill('SIGUSR1');
  await until('SIGUSR1 is said', () => running.output().stderr.includes('SIGUSR1 ignored'), 20_000);
  // A request answered after the signal: the process went on (and Node would have printed its line by now).
  expect((await httpGet(`${url}/metrics`)).status).toBe(200);
  running.child.kill('SIGTERM');
  const result = await running.result;
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).not.toMatch(INSPECTOR);
  const lines = result.stderr.trim().split('\n');
  for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
  expect(lines.map((line) => JSON.parse(line) as unknown)).toContainEqual({
    note: { message: 'SIGUSR1 ignored: energy never opens the Node.js inspector' },
  });
  expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);
}, 30_000);

it('SIGUSR1 while the entry loads the program (before its own listener) opens no inspector either', async () => {
  const preload = fileURLToPath(new URL('../fixtures/usr1-at-load.cjs', import.meta.url));
  const running = world.spawn(['sandbox', '--port', '0', '--json'], {
    launch: [process.execPath, '--require', preload, BIN],
    env: { ENERGY_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'energy-usr1-load-')) },
  });
  onTestFinished(() => void running.child.kill('SIGKILL'));
  // Serving: the program loaded and ran after the signal (Node prints its inspector line at once, when it opens).
  await until('the sandbox serves', () => running.output().stdout.includes('http://127.0.0.1:'), 20_000);
  running.child.kill('SIGTERM');
  const result = await running.result;
  expect(result.stderr).not.toMatch(INSPECTOR);
  expect(result.stderr).toContain('SIGUSR1 ignored: energy never opens the Node.js inspector');
}, 30_000);
