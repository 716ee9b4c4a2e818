import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { tolerancePercent } from '../../../src/ensure/ensure-arguments.js';

describe('--tolerance', () => {
  it.each([
    ['1', 100],
    ['1%', 100],
    ['0.25', 25],
    ['0.5%', 50],
    ['0', 0],
    ['49.99', 4999],
  ] as const)('%s is %d basis points', (text, bp) => {
    expect(tolerancePercent(text)).toBe(bp);
  });

  it.each(['50', '1%%', '%', '-1', '0.125', 'abc', ''])('%s is refused', (text) => {
    expect(() => tolerancePercent(text)).toThrow(InvalidArgumentError);
  });
});
