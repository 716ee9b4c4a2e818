/**
 * A signal early in the service's life is never lost: SIGTERM or SIGINT sent 0.05 to 0.9 s after the start
 * (before the stop switch of `ensure --every` exists, while it is installed, or while the first cycle
 * reads) stops the service before anything is ordered: no order at the sandbox, exit 0 as the contract
 * says for a stopped service. The sandbox, as the TRON node, answers the first cycle's read after 1.5 s, so
 * that however fast this machine starts, no cycle can reach its order before the signal.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });

function service(address: string, env: Record<string, string> = {}) {
  return world.spawn(['ensure', ...rentalArgs(address, '--yes', '--every', '1h'), '--json'], {
    env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-sig-')), ...env },
  });
}
const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

describe('ensure --every: an early signal', () => {
  it.each([
    [50, 'SIGTERM', 15_900],
    [100, 'SIGTERM', 15_901],
    [200, 'SIGTERM', 15_902],
    [500, 'SIGTERM', 15_903],
    [900, 'SIGTERM', 15_904],
    [100, 'SIGINT', 15_905],
    [500, 'SIGINT', 15_906],
  ] as const)(
    '%i ms after the start, %s stops it before its first cycle: no order, exit 0',
    async (delayMs, name, seed) => {
      const address = freshAddress(seed);
      world.sandbox.inject({ kind: 'delay', ms: 1_500, match: { path: '/wallet/getaccountresource' } });
      const running = service(address);
      // The signal is the stimulus, sent at a fixed moment after the spawn (not a wait for something).
      const timer = setTimeout(() => running.child.kill(name), delayMs);
      const result = await running.result;
      clearTimeout(timer);
      world.sandbox.clearFaults();
      expect(ordersTo(address)).toHaveLength(0);
      if (running.child.signalCode === name) {
        // Killed by the signal's default action before the entry could set its handlers (Node still
        // starting): the shell's 128 + n, and nothing ran.
        expect(result.stdout).toBe('');
        return;
      }
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/stopped before its first cycle|stopped in cycle 1, before it ordered anything/);
      expect(result.stderr).not.toMatch(/internal error|stopped before finishing/);
    },
    30_000,
  );

  it.each(['before', 'after'] as const)(
    'a SIGTERM forced %s the switch is installed (the test seam) stops it before its first cycle',
    async (moment) => {
      const address = freshAddress(moment === 'before' ? 15_907 : 15_908);
      const running = service(address, { ENERGY_TEST_SIGNAL_AT_SWITCH: `${moment}:SIGTERM` });
      const result = await running.result;
      expect(ordersTo(address)).toHaveLength(0);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/SIGTERM(:| while starting:) stopping/);
      expect(result.stderr).toMatch(/stopped before its first cycle/);
    },
    30_000,
  );
});
