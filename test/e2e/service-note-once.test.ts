/**
 * A service's per-address notes by the rule of its alarms (issue 45): the bandwidth note of a wallet whose
 * bandwidth pays for one of its two transfers is written once over many cycles, not once a cycle; after a
 * cycle without it (its bandwidth restored) it is written again when it comes back.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshAddress, until } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });

// 600 free bandwidth, 255 used: 345 left, one transfer's worth; energy for both transfers, so nothing is bought.
const SHORT = { energy: 300_000, usdt: 5_000_000n, bandwidthUsed: 255 };
const RESTORED = { ...SHORT, bandwidthUsed: 0, bandwidth: 345 };

describe('ensure --every: a per-address note', () => {
  it('is written once while it holds, and again when it comes back after a cycle without it', async () => {
    const X = freshAddress(45_301);
    world.sandbox.seedTronAccount(X, SHORT);
    const args = ['ensure', X, '--transfers', '2', '--to', X, '--hours', '1', '--every', '100ms', '--yes', '--json'];
    const running = world.spawn(args, {
      env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-note-')) },
    });
    const cyclesSoFar = () => running.output().stdout.split('\n').filter(Boolean).length;
    await until('six cycles', () => cyclesSoFar() >= 6 || undefined, 30_000);
    world.sandbox.seedTronAccount(X, RESTORED);
    const restoredAt = cyclesSoFar();
    await until('three cycles restored', () => cyclesSoFar() >= restoredAt + 3 || undefined, 30_000);
    world.sandbox.seedTronAccount(X, SHORT);
    const shortAgainAt = cyclesSoFar();
    await until('three cycles short again', () => cyclesSoFar() >= shortAgainAt + 3 || undefined, 30_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    const notes = result.stderr.split('\n').filter((line) => line.includes('its bandwidth pays for 1 of 2 transfers'));
    expect(notes).toHaveLength(2);
    expect(world.sandbox.orders().filter((order) => order.address === X)).toHaveLength(0);
  }, 120_000);
});
