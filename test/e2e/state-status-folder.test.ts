/**
 * `energy state status` on the state folder: its pending records, those that cannot be read said beside them
 * (issue 50 SS4), and the clock its ledgers are summed on.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });

it('an unreadable pending record is counted and said; the clock is the API server’s', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'energy-status-'));
  mkdirSync(join(stateDir, 'journal', 'pending'), { recursive: true, mode: 0o700 });
  writeFileSync(join(stateDir, 'journal', 'pending', 'broken.json'), '{"version": 1, "origin": "htt', { mode: 0o600 });
  const env = { ENERGY_STATE_DIR: stateDir };
  const text = await world.run(['state', 'status'], { env });
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toMatch(/Pending records\s+0, 1 unreadable\n/);
  expect(text.stdout).toMatch(/Clock\s+\S+, the API server\n/);
  const document = JSON.parse((await world.run(['state', 'status', '--json'], { env })).stdout) as {
    pending: { unreadable: number };
    clock: { source: string };
    hosts: unknown[];
    runs: { total: number };
  };
  expect(document).toMatchObject({
    pending: { unreadable: 1 },
    clock: { source: 'server' },
    hosts: [],
    runs: { total: 0 },
  });
});
