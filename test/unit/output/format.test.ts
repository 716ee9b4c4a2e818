import { describe, expect, it } from 'vitest';
import { formatInteger, formatTimestamp } from '../../../src/domain/text-forms.js';
import { colorLevel } from '../../../src/output/terminal.js';

describe('formatTimestamp', () => {
  it('reads seconds and milliseconds alike (the spec gives no unit)', () => {
    expect(formatTimestamp(1_795_420_800, 0)).toBe('2026-11-23T08:00:00Z');
    expect(formatTimestamp(1_795_420_800_000, 0)).toBe('2026-11-23T08:00:00Z');
  });

  it('shows local time with its UTC offset', () => {
    expect(formatTimestamp(1_795_420_800, 60)).toBe('2026-11-23T09:00:00+01:00');
    expect(formatTimestamp(1_795_420_800, -330)).toBe('2026-11-23T02:30:00-05:30');
  });
});

describe('formatInteger', () => {
  it('groups thousands', () => expect(formatInteger(5_000_000)).toBe('5,000,000'));
  it.each([0, 7, 999, 1000, 65_000, 123_456, 1_234_567, 12_000_000_000, -4200, 2 ** 53 - 1, 1234.5])(
    'writes %d as toLocaleString("en-US") does',
    (value) => expect(formatInteger(value)).toBe(value.toLocaleString('en-US')),
  );
});

describe('colorLevel', () => {
  it.each([
    [{ NO_COLOR: '1' }, true, 0],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, 0],
    [{ FORCE_COLOR: '1' }, false, 1],
    [{ FORCE_COLOR: '3' }, false, 3],
    [{ FORCE_COLOR: '0' }, true, 0],
    [{}, true, 1],
    [{ TERM: 'dumb' }, true, 0],
    [{}, false, 0],
  ])('%j on a terminal=%s → %i', (env, tty, level) => {
    expect(colorLevel(env, tty)).toBe(level);
  });
});
