import { describe, expect, it } from 'vitest';
import { timestampMs } from '../../src/domain/api-time.js';

describe('timestampMs', () => {
  it.each([
    ['seconds', 1_795_420_800, 1_795_420_800_000],
    ['milliseconds', 1_795_420_800_000, 1_795_420_800_000],
    ['the last value read as seconds', 99_999_999_999, 99_999_999_999_000],
    ['the first value read as milliseconds', 100_000_000_000, 100_000_000_000],
  ])('reads %s', (_name, value, ms) => {
    expect(timestampMs(value)).toBe(ms);
  });
});
