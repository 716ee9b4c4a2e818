import { describe, expect, it } from 'vitest';
import {
  addAmounts,
  compareAmounts,
  isApiAmount,
  multiplyAmount,
  parseUserAmount,
  subtractAmounts,
} from '../../src/domain/money.js';

describe('parseUserAmount', () => {
  it.each([
    ['5', '5.000000'],
    ['5.5', '5.500000'],
    ['0.000001', '0.000001'],
    ['12345678901234567890.123456', '12345678901234567890.123456'],
    [' 3.7 ', '3.700000'],
  ])('reads %j as %j', (input, expected) => {
    expect(parseUserAmount(input)).toBe(expected);
  });

  it.each(['1e3', '-1', '1.1234567', '.5', '5.', '', 'abc', '0x10', '1,5', 'Infinity', 'NaN', '+1'])(
    'refuses %j',
    (input) => {
      expect(() => parseUserAmount(input)).toThrow(/not a TRX amount/);
    },
  );

  it('keeps precision a float would lose', () => {
    expect(parseUserAmount('9007199254740993.000001')).toBe('9007199254740993.000001');
  });
});

describe('isApiAmount', () => {
  it.each(['0.000000', '3.700000', '100000000000.000001'])('accepts %j', (text) =>
    expect(isApiAmount(text)).toBe(true),
  );
  it.each(['3.7', '3.7000000', '-1.000000', '1e3', 3.7, null])('refuses %j', (value) =>
    expect(isApiAmount(value)).toBe(false),
  );
});

describe('arithmetic', () => {
  it('compares by value, not by text', () => {
    expect(compareAmounts('10.000000', '9.999999')).toBeGreaterThan(0);
    expect(compareAmounts('2.000000', '2.000000')).toBe(0);
    expect(compareAmounts('0.100000', '0.200000')).toBeLessThan(0);
  });

  it('adds and subtracts without float error', () => {
    expect(addAmounts('0.100000', '0.200000')).toBe('0.300000');
    expect(subtractAmounts('1.000000', '0.000001')).toBe('0.999999');
  });

  it('rounds a price up to the micro-TRX', () => {
    expect(multiplyAmount('0.000040', 65000)).toBe('2.600000');
    expect(multiplyAmount('0.0000001', 15)).toBe('0.000002');
  });
});
