import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/commands/duration-arguments.js';
import { formatDuration } from '../../src/domain/duration.js';

describe('formatDuration', () => {
  it.each([
    [1000, '1s'],
    [2500, '2.5s'],
    [30_000, '30s'],
    [90_000, '90s'],
    [600_000, '10m'],
    [3_600_000, '1h'],
    [86_400_000, '1d'],
    [400, '400ms'],
  ] as const)('%d ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('writes what parseDuration reads back to the same milliseconds', () => {
    for (const ms of [1, 999, 1000, 1234, 59_999, 60_000, 5_400_000, 86_400_000, 604_800_000])
      expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});
