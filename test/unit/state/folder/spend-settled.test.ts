/**
 * The settled part of a folder ledger (spend-settled.ts): entries added in several merges, out of time order,
 * summed exactly over any window in micro-TRX; the dead left out; an id found by its key. The expected sums are
 * worked out from the fixture with bigint arithmetic here, not by the code under test.
 */
import { describe, expect, it } from 'vitest';
import type { SpendEntry } from '../../../../src/journal/spend-book.js';
import { amountOf, microOf, SettledIndex } from '../../../../src/state/folder/spend-settled.js';

/** Order n: at second (n × 37) mod 100, for (n + 1) × 1.000001 TRX; every seventh refunded. */
function entry(n: number): SpendEntry {
  const at = ((n * 37) % 100) * 1000;
  const total = amountOf(BigInt(n + 1) * 1_000_001n);
  return {
    id: `order-${n}`,
    address: 'T',
    key_id: 'k',
    origin: 'o',
    holds: new Map(),
    order: { order_id: `o${n}`, total_trx: total, at_ms: at },
    final: { state: n % 7 === 0 ? 'refunded' : 'kept', note: null },
  };
}

const expected = (since: number, before = -Infinity) => {
  let micro = 0n;
  let entries = 0;
  for (let n = 0; n < 100; n += 1) {
    const at = ((n * 37) % 100) * 1000;
    if (n % 7 === 0 || at < since || at < before) continue;
    micro += BigInt(n + 1) * 1_000_001n;
    entries += 1;
  }
  return { micro, entries };
};

describe('the settled index', () => {
  it('sums any window exactly, whatever order and merges the entries came in', () => {
    let index = new SettledIndex();
    for (let part = 0; part < 5; part += 1)
      index = index.merged(
        Array.from({ length: 20 }, (_, k) => entry(part * 20 + k)),
        -Infinity,
      );
    expect(index.size).toBe(100);
    for (const since of [0, 1, 999, 1000, 37_000, 50_500, 99_000, 99_001]) {
      const { micro, entries } = index.window(since);
      expect({ micro, entries }).toEqual(expected(since));
    }
    expect(index.window(0).oldestMs).toBe(1000);
    // 5,050 less the 15 refunded (750) = 4,300 times 1.000001.
    expect(amountOf(index.window(0).micro)).toBe('4300.004300');
    expect(index.has('order-42')).toBe(true);
    expect(index.has('order-100')).toBe(false);
  });

  it('leaves out what counts from before the cut when merging, and still sums the rest exactly', () => {
    const all = new SettledIndex().merged(
      Array.from({ length: 100 }, (_, n) => entry(n)),
      -Infinity,
    );
    const pruned = all.merged([], 50_000);
    // 37 is prime to 100: the seconds are 0-99 once each, 50 of them from 50 s on.
    expect(pruned.size).toBe(50);
    expect(pruned.has('order-1')).toBe(false); // at 37 s
    expect(pruned.has('order-2')).toBe(true); // at 74 s
    const { micro, entries } = pruned.window(0);
    expect({ micro, entries }).toEqual(expected(0, 50_000));
    expect(pruned.window(0).oldestMs).toBe(50_000);
  });

  it('reads six-decimal text as micro-TRX and back', () => {
    expect(microOf('12.000345')).toBe(12_000_345n);
    expect(amountOf(12_000_345n)).toBe('12.000345');
    expect(amountOf(0n)).toBe('0.000000');
    expect(amountOf(-5n)).toBe('-0.000005');
  });
});
