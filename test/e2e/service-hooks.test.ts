/**
 * --on-event hooks never hold the service (issue 31): spawned for real against the sandbox, a hook that
 * leaves a helper holding its output (`setsid sleep 120 &`) and 12 events queued behind a `sleep 100` hook
 * both let SIGTERM stop the service within 15 s (the running hooks get their 10 s bound, the waiting events
 * are dropped and counted); a hook that is not there, or not executable, is exit 2 before any cycle.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freshAddress, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });

function service(addresses: string[], hook: string) {
  return world.spawn(['ensure', ...rentalArgs(addresses, '--yes', '--every', '1h', '--on-event', hook), '--json'], {
    env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-hooks-')) },
  });
}
const ordersTo = (addresses: string[]) => world.sandbox.orders().filter((order) => addresses.includes(order.address));

describe('ensure --every --on-event: hooks never hold the service', () => {
  it('a hook that leaves a helper holding its pipes (setsid sleep 120 &): SIGTERM stops the service within 15 s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-hooks-'));
    const pidFile = join(dir, 'helper.pid');
    const address = freshAddress(31_001);
    const running = service([address], `setsid sleep 120 & echo $! > ${pidFile}`);
    await until(
      'the helper is started',
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
      20_000,
    );
    const helper = Number(readFileSync(pidFile, 'utf8').trim());
    onTestFinished(() => {
      try {
        process.kill(helper, 'SIGKILL');
      } catch {
        // Already gone.
      }
    });
    const sent = Date.now();
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(Date.now() - sent).toBeLessThan(15_000);
    expect(result.code, result.stderr).toBe(0);
    expect(ordersTo([address])).toHaveLength(1);
    // The helper lives on (it is the hook's business): the service did not wait for it.
    expect(() => process.kill(helper, 0)).not.toThrow();
  }, 40_000);

  it('12 events queued behind a `sleep 100` hook: SIGTERM stops it within 15 s, 10 waiting events dropped and counted', async () => {
    const addresses = Array.from({ length: 12 }, (_, i) => freshAddress(31_010 + i));
    const running = service(addresses, 'sleep 100');
    await until('the cycle is printed', () => running.output().stdout.includes('"cycle":1'), 20_000);
    const sent = Date.now();
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(Date.now() - sent).toBeLessThan(15_000);
    expect(result.code, result.stderr).toBe(0);
    expect(ordersTo(addresses)).toHaveLength(12);
    const notes = result.stderr
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { note?: { message: string } }).note?.message);
    expect(notes).toContain('on-event: 10 waiting event(s) dropped at shutdown');
    expect(notes.filter((note) => note?.includes('`sleep 100` for order_placed was stopped after 10 s'))).toHaveLength(
      2,
    );
  }, 40_000);

  it.each([
    [
      'not found',
      () => join(mkdtempSync(join(tmpdir(), 'energy-hooks-')), 'no-such-hook'),
      /no-such-hook was not found/,
    ],
    [
      'not executable',
      () => {
        const script = join(mkdtempSync(join(tmpdir(), 'energy-hooks-')), 'hook.sh');
        writeFileSync(script, '#!/bin/sh\n');
        chmodSync(script, 0o644);
        return script;
      },
      /hook.sh is not an executable file/,
    ],
  ])('a hook %s is exit 2 before any cycle', async (_, hook, message) => {
    const address = freshAddress(_ === 'not found' ? 31_030 : 31_031);
    const requests = world.sandbox.requestCount('/v1/energy/orders');
    const result = await world.run(['ensure', ...rentalArgs(address, '--yes', '--every', '1h', '--on-event', hook())], {
      env: { ENERGY_TRON_NODE: world.sandbox.url },
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(requests);
    expect(ordersTo([address])).toHaveLength(0);
  });
});
