/** occurrences.ts: the check pass's filter keeps every repeat (and some false alarms); counts stay exact. */
import { describe, expect, it } from 'vitest';
import { OccurrenceCounter, RepeatFilter } from '../../../src/batch/occurrences.js';

describe('occurrences', () => {
  it('counts exactly over 300,000 keys, whatever the filter kept', () => {
    const keys = Array.from({ length: 300_000 }, (_, i) => `T${i}\n65000\n1`);
    // Repeats: some keys again, one three times, far apart in the file.
    const file = [...keys, keys[7]!, keys[299_999]!, keys[7]!];
    const filter = new RepeatFilter();
    for (const key of file) filter.add(key);
    expect(filter.candidates.has(keys[7]!)).toBe(true);
    expect(filter.candidates.has(keys[299_999]!)).toBe(true);
    // False alarms are few, and harmless: see below.
    expect(filter.candidates.size).toBeLessThan(1_000);
    const counter = new OccurrenceCounter(filter.candidates);
    const occurrences = file.map((key) => counter.next(key));
    expect(occurrences.slice(0, 300_000).every((n) => n === 1)).toBe(true);
    expect(occurrences.slice(300_000)).toEqual([2, 2, 3]);
  });

  it('a false alarm still counts 1: ids never depend on the filter', () => {
    const counter = new OccurrenceCounter(new Set(['a', 'b']));
    expect(['a', 'c', 'b', 'a'].map((key) => counter.next(key))).toEqual([1, 1, 1, 2]);
  });
});
