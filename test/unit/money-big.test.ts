/**
 * Amounts above 2^53 micro-TRX (90071992547.409931 TRX and up), where a JavaScript number can no longer
 * tell neighbouring micro-TRX apart: Number('90071992547.409931') === Number('90071992547.409930').
 */
import { describe, expect, it } from 'vitest';
import {
  addAmounts,
  compareAmounts,
  isApiAmount,
  multiplyAmount,
  parseUserAmount,
  subtractAmounts,
} from '../../src/domain/money.js';

const BIG = '90071992547.409931';
const BIG_MINUS_ONE = '90071992547.409930';

describe('money above 2^53 micro-TRX', () => {
  it('parses a typed amount exactly', () => {
    expect(parseUserAmount(BIG)).toBe(BIG);
    expect(parseUserAmount('90071992547.40993')).toBe(BIG_MINUS_ONE);
    expect(isApiAmount(BIG)).toBe(true);
  });

  it('compares neighbours that a float sees as equal', () => {
    expect(compareAmounts(BIG, BIG_MINUS_ONE)).toBeGreaterThan(0);
    expect(compareAmounts(BIG_MINUS_ONE, BIG)).toBeLessThan(0);
    expect(compareAmounts(BIG, BIG)).toBe(0);
  });

  it('sums and subtracts to the micro-TRX', () => {
    expect(addAmounts(BIG, '0.000001')).toBe('90071992547.409932');
    expect(subtractAmounts(BIG, BIG_MINUS_ONE)).toBe('0.000001');
    expect(addAmounts(BIG, BIG)).toBe('180143985094.819862');
  });

  it('prices to the micro-TRX', () => {
    expect(multiplyAmount('1385722962.267845', 65)).toBe('90071992547.409925');
    expect(multiplyAmount('0.000001', 90_071_992_547_409_931n)).toBe(BIG);
  });
});
