import { describe, expect, it } from 'vitest';
import { roundUpToPortion } from '../../../src/domain/portions.js';
import { addressState, transactionsCovered } from '../../../src/tron/address-state.js';

const ZERO = { EnergyLimit: 0, EnergyUsed: 0, freeNetLimit: 0, freeNetUsed: 0, NetLimit: 0, NetUsed: 0, empty: true };

describe('addressState', () => {
  it('available energy is limit − used, never below 0', () => {
    const state = addressState('T', { ...ZERO, EnergyLimit: 65_000, EnergyUsed: 20_000, empty: false });
    expect(state.energy_available).toBe(45_000);
    expect(addressState('T', { ...ZERO, EnergyLimit: 1_000, EnergyUsed: 5_000 }).energy_available).toBe(0);
  });

  it('activated is whether the node answered anything but {}', () => {
    expect(addressState('T', ZERO).activated).toBe(false);
    expect(addressState('T', { ...ZERO, freeNetLimit: 600, empty: false }).activated).toBe(true);
  });

  it('bandwidth is free plus staked, each remaining on its own', () => {
    const resource = { ...ZERO, freeNetLimit: 600, freeNetUsed: 700, NetLimit: 1_000, NetUsed: 250 };
    expect(addressState('T', resource).bandwidth_available).toBe(750);
  });
});

describe('transactionsCovered (java-tron takes each transaction whole from one source)', () => {
  it.each([
    ['the free 600 pays for one 345-byte transfer', 600, 0, 0, 1],
    ['300 staked plus 300 free pay for none', 300, 0, 300, 0],
    ['staked and free count apart', 600, 0, 700, 3],
    ['used bandwidth is not available', 600, 300, 0, 0],
  ])('%s', (_label, freeNetLimit, freeNetUsed, NetLimit, covered) => {
    expect(transactionsCovered({ ...ZERO, freeNetLimit, freeNetUsed, NetLimit, empty: false })).toBe(covered);
  });
});

describe('roundUpToPortion', () => {
  it.each([
    [0, 1_000, 0],
    [1, 1_000, 1_000],
    [64_285, 1_000, 65_000],
    [65_000, 1_000, 65_000],
    [130_285, 1_000, 131_000],
    [64_285, 32_000, 96_000],
  ])('%i in portions of %i → %i', (energy, portion, expected) => {
    expect(roundUpToPortion(energy, portion)).toBe(expected);
  });

  it('refuses a portion that is not a positive integer', () => {
    expect(() => roundUpToPortion(1, 0)).toThrow(RangeError);
    expect(() => roundUpToPortion(-1, 1_000)).toThrow(RangeError);
  });
});
