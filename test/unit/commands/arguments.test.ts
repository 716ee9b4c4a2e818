import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import * as parse from '../../../src/commands/arguments.js';
import * as durations from '../../../src/commands/duration-arguments.js';

describe('argument parsers', () => {
  it.each([
    [
      'positiveInteger',
      parse.positiveInteger,
      ['1', '65000', ' 7 '],
      ['0', '-1', '1.5', '1e3', '0x10', '', 'abc', '+5', '01', '9007199254740993'],
    ],
    ['nonNegativeInteger', parse.nonNegativeInteger, ['0', '8787'], ['-1', 'x']],
    ['wholeHours', parse.wholeHours, ['1', '24', ' 2 '], ['0', '1h', '90m', '1.5', '']],
    ['signedInteger', parse.signedInteger, ['-900', '0', '900'], ['--1', '1.0', '']],
    ['retryCount', parse.retryCount, ['0', '10'], ['11', '-1']],
    [
      'seconds',
      durations.seconds,
      ['30', '2.5', '10m', '1d', '500ms'],
      ['0', '0s', '-1', 'abc', '1e2', '86401', '2d', '5 m'],
    ],
    [
      'everyDuration',
      durations.everyDuration,
      ['1ms', '30s', '1d', '7d', '1.5h'],
      ['0s', '0', '0.0001s', '8d', '5x', ''],
    ],
    ['trxAmount', parse.trxAmount, ['5', '3.7', '3.700000'], ['1e3', '-1', '1.1234567', '.5']],
    [
      'tronAddress',
      parse.tronAddress,
      ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
      ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', '0x41', ''],
    ],
    [
      'orderId',
      parse.orderId,
      ['2b7c1f7e-3f3a-4f1e-9d8c-0a5b6c7d8e9f', '2b7c1f7e', '2B7C1F7E'],
      ['2b7c1f7', '2b7c1f7e-', 'not-a-uuid', 'zzzzzzzz', ''],
    ],
    ['clientRequestId', parse.clientRequestId, ['abc-1', 'a.b:c_d'], ['', 'a b', 'x'.repeat(65), 'é', 'a;rm']],
    ['cursor', parse.cursor, ['abc', 'eyJzIjo1fQ=='], ['', 'a b', 'x'.repeat(2049), 'tab\t']],
  ] as const)('%s', (_name, parser, good, bad) => {
    for (const text of good) expect(() => (parser as (t: string) => unknown)(text)).not.toThrow();
    for (const text of bad) expect(() => (parser as (t: string) => unknown)(text), text).toThrow(InvalidArgumentError);
  });

  it('returns typed values', () => {
    expect(parse.positiveInteger('65000')).toBe(65000);
    expect(parse.trxAmount('3.7')).toBe('3.700000');
    expect(parse.orderId('2B7C1F7E-3F3A-4F1E-9D8C-0A5B6C7D8E9F')).toBe('2b7c1f7e-3f3a-4f1e-9d8c-0a5b6c7d8e9f');
  });

  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['10m', 600_000],
    ['1.5h', 5_400_000],
    ['1d', 86_400_000],
    [' 600 ', 600_000],
    ['2.5', 2500],
    ['0.0005s', 1],
  ] as const)('parseDuration(%j) is %d ms', (text, ms) => {
    expect(durations.parseDuration(text)).toBe(ms);
  });

  it.each(['0s', '0', '0ms', '0.0004s', '-1s', '1w', '1e3', 's', '1 h', '1H', ''])(
    'parseDuration(%j) is not a duration (0 would be a busy loop for --every)',
    (text) => {
      expect(durations.parseDuration(text)).toBeUndefined();
    },
  );

  it('every duration option says the one syntax, and the bound, without repeating the value', () => {
    expect(() => durations.everyDuration('0s')).toThrow(/^must be a duration such as 30s, 10m, 1h or 1d/);
    expect(() => durations.everyDuration('8d')).toThrow('too long: at most 7d');
    expect(() => durations.seconds('2d')).toThrow('too long: at most 1d');
    expect(durations.everyDuration('1d')).toBe(86_400_000);
    expect(durations.seconds('10m')).toBe(600);
    expect(durations.seconds('600')).toBe(600);
  });
});

describe('--hours', () => {
  it.each(['1h', '90m', '1.5', '0'])('refuses %j saying it takes whole hours, e.g. 1', (text) => {
    expect(() => parse.wholeHours(text)).toThrow('must be whole hours, e.g. 1 (a number alone: no unit, no fraction)');
  });

  it('says the separators when the number has them', () => {
    expect(() => parse.wholeHours('1,000')).toThrow('write it without separators, e.g. 1000');
  });
});
