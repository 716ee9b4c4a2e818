import { describe, expect, it } from 'vitest';
import { arrivalExpected, isShort, shortfall, toleratedUnits } from '../../../src/ensure/shortfall.js';

const base = { portion: 1_000, maxEnergy: 5_000_000 };

describe('shortfall', () => {
  it.each([
    ['enough on chain', 65_000, 70_000, 0, 0],
    ['exactly enough', 65_000, 65_000, 0, 0],
    ['rounded up to the portion', 64_500, 45_000, 0, 20_000],
    ['in flight counts', 65_000, 45_000, 20_000, 0],
    ['in flight covers part', 65_000, 10_000, 20_000, 35_000],
    ['nothing on chain, one unit short', 1, 0, 0, 1_000],
  ])('%s', (_label, target, available, inFlight, toBuy) => {
    expect(shortfall({ ...base, target, available, inFlight }).toBuy).toBe(toBuy);
  });

  it('caps at the largest whole-portion order within max_energy, and says so', () => {
    expect(shortfall({ target: 10_000, available: 0, inFlight: 0, portion: 3_000, maxEnergy: 7_000 })).toEqual({
      missing: 10_000,
      toBuy: 6_000,
      capped: true,
    });
  });
});

describe('drift tolerance (basis points, integers only)', () => {
  it('tolerates at most bp of the target, rounded down', () => {
    expect(toleratedUnits(65_000, 100)).toBe(650);
    expect(toleratedUnits(130_285, 100)).toBe(1_302);
    expect(toleratedUnits(65_000, 0)).toBe(0);
  });

  it('a shortfall within the tolerance buys nothing; one unit beyond buys the whole shortfall, rounded', () => {
    const input = { ...base, target: 65_000, inFlight: 0, toleranceBp: 100 };
    expect(shortfall({ ...input, available: 64_350 })).toEqual({ missing: 650, toBuy: 0, capped: false });
    expect(shortfall({ ...input, available: 64_349 })).toEqual({ missing: 651, toBuy: 1_000, capped: false });
    expect(isShort(65_000, 64_350, 100)).toBe(false);
    expect(isShort(65_000, 64_349, 100)).toBe(true);
    expect(isShort(65_000, 64_999, 0)).toBe(true);
  });

  it('--wait accepts what was there plus what was bought, less the tolerance on what was bought', () => {
    expect(arrivalExpected(1_000, 65_000, 100)).toBe(65_350);
    expect(arrivalExpected(1_000, 65_000, 0)).toBe(66_000);
  });
});
