/**
 * How old a reading of the fleet's order list a service's cycle takes (ensure/fresh-reading.ts): its interval,
 * or 0.85 of its last cycle where cycles outlast the interval, never past a minute unless the interval is longer.
 */
import { describe, expect, it } from 'vitest';
import { freshForMs } from '../../../src/ensure/fresh-reading.js';

describe('freshForMs', () => {
  it('is the interval for a first cycle, and for cycles that end within it', () => {
    expect(freshForMs(2_000, undefined)).toBe(2_000);
    expect(freshForMs(2_000, 1_800)).toBe(2_000);
    expect(freshForMs(2_000, 2_200)).toBe(2_000);
  });

  it('is 0.85 of the last cycle where cycles outlast the interval', () => {
    expect(freshForMs(2_000, 4_000)).toBe(3_400);
    expect(freshForMs(300, 2_600)).toBe(2_210);
  });

  it('never past a minute, unless the interval itself is longer', () => {
    expect(freshForMs(2_000, 600_000)).toBe(60_000);
    expect(freshForMs(300_000, 900_000)).toBe(300_000);
  });
});
