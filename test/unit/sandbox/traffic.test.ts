/**
 * The sandbox's traffic (issue 45): a seeded address sends its transfers on sandbox time, each paid with the
 * energy it has left, else burnt at getEnergyFee (100 sun here), its usage recovering over java-tron's 24 h
 * window; and the clock's time scale. Expected figures worked out by hand from java-tron's rules.
 */
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../../src/sandbox/clock.js';
import { parseSeedAddress } from '../../../src/sandbox/tron-seed.js';
import { testAddress } from './addresses.js';
import { useSandbox } from './fixtures.js';

const start = useSandbox();

describe('traffic', () => {
  it('no energy: every transfer burns 64,285 × 100 sun (60 in an hour: 385.71 TRX)', async () => {
    const s = await start({ tronAccounts: { [testAddress(4501)]: { transfersPerHour: 60 } } });
    s.advance(3_600_000);
    expect(s.traffic()).toEqual([{ address: testAddress(4501), transfers: 60, covered: 0, burned_trx: '385.710000' }]);
  });

  it('130,000 energy: two transfers covered, the third uses the 1,563 left and burns the rest', async () => {
    const s = await start({ tronAccounts: { [testAddress(4502)]: { energy: 130_000, transfersPerHour: 60 } } });
    s.advance(180_000);
    // Usage after two, recovered for a minute each: 128,436.1 → 1,563 left; (64,285 − 1,563) × 100 sun.
    expect(s.traffic()).toEqual([{ address: testAddress(4502), transfers: 3, covered: 2, burned_trx: '6.272200' }]);
  });

  it('the node reports the traffic as EnergyUsed', async () => {
    const s = await start({ tronAccounts: { [testAddress(4503)]: { energy: 130_000, transfersPerHour: 60 } } });
    s.advance(60_000);
    const response = await fetch(`${s.url}/wallet/getaccountresource`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: testAddress(4503), visible: true }),
    });
    expect(await response.json()).toMatchObject({ EnergyLimit: 130_000, EnergyUsed: 64_285 });
  });

  it('--seed-address reads transfers-per-hour', () => {
    expect(parseSeedAddress(`${testAddress(4504)}:transfers-per-hour=30`).seed).toEqual({ transfersPerHour: 30 });
    expect(() => parseSeedAddress(`${testAddress(4504)}:transfers-per-hour=0`)).toThrow(RangeError);
  });
});

describe('time scale', () => {
  it('a clock at 1000× has moved on by at least 1000 times the real time that passed', async () => {
    const clock = new SandboxClock(0, 1000);
    const before = clock.nowMs();
    const realBefore = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const real = performance.now() - realBefore;
    expect(clock.nowMs() - before).toBeGreaterThanOrEqual(Math.floor(real * 1000) - 1);
  });
});
