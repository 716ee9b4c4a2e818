import { describe, expect, it } from 'vitest';
import { needId, PERIOD_MS, periodStart, windowStart } from '../../../src/ensure/need-id.js';

const A = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const B = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const NOW = Date.UTC(2026, 10, 23, 19, 0, 0);

describe('derived ids for ensure', () => {
  it('are the same for the same address and anchor, whoever computes them', () => {
    // Worked out outside the code: printf 'ensure need v1\n%s\nafter o-1' "$A" | sha256sum, its first 32 digits.
    expect(needId(A, { orderId: 'o-1' })).toBe('ensure-da209f2f19aa578bb025df60c8006359');
  });

  it("without an anchor order: the period's start, at the address's own offset", () => {
    // printf 'period\n%s' "$A" | sha256sum: 0x8792ad0dfa86 mod 86,400,000 ms is 19,149,446 (05:19:09.446).
    expect(periodStart(A, NOW)).toBe(Date.UTC(2026, 10, 23, 5, 19, 9, 446));
    // printf 'ensure need v1\n%s\nnone 2026-11-23T05:19:09.446Z' "$A" | sha256sum
    expect(needId(A, { periodStartMs: periodStart(A, NOW) })).toBe('ensure-e7c3d30d189a4516499065a28db6076c');
  });

  it('differ by address, by anchor order, and by period when no order anchors the need', () => {
    const ids = new Set([
      needId(A, { orderId: 'o-1' }),
      needId(A, { orderId: 'o-2' }),
      needId(B, { orderId: 'o-1' }),
      needId(A, { periodStartMs: periodStart(A, NOW) }),
      needId(A, { periodStartMs: periodStart(A, NOW) + PERIOD_MS }),
    ]);
    expect(ids.size).toBe(5);
  });

  it('periods last a day, contain now, start at an offset of the address, and the window covers the one before', () => {
    for (const address of [A, B]) {
      const start = periodStart(address, NOW);
      expect(start).toBeLessThanOrEqual(NOW);
      expect(NOW - start).toBeLessThan(PERIOD_MS);
      expect(periodStart(address, start)).toBe(start);
      expect(periodStart(address, start - 1)).toBe(start - PERIOD_MS);
      expect(windowStart(address, NOW)).toBe(start - PERIOD_MS);
    }
    expect(periodStart(A, NOW)).not.toBe(periodStart(B, NOW));
  });
});
