/**
 * domain/pool after a stop reads nothing more from its source: a batch stopped by a signal does not read
 * (and spool) another line of its file per worker. Counted as calls to the source's next().
 */
import { describe, expect, it } from 'vitest';
import { runPool } from '../../src/domain/pool.js';

/** The numbers 0…count-1, counting every next() asked of it. */
function countedSource(count: number): { items: AsyncIterable<number>; reads: () => number } {
  let reads = 0;
  const items: AsyncIterable<number> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        reads += 1;
        const value = reads - 1;
        return value < count ? { value, done: false } : { value: undefined, done: true };
      },
    }),
  };
  return { items, reads: () => reads };
}

describe('runPool once stopped', () => {
  it('stopped before it starts: no item read, none worked on', async () => {
    const source = countedSource(10);
    const worked: number[] = [];
    await runPool(
      source.items,
      3,
      async (n) => void worked.push(n),
      () => true,
    );
    expect(source.reads()).toBe(0);
    expect(worked).toEqual([]);
  });

  it('stopped by the first item’s work, two workers: the two items read finish, and no third is read', async () => {
    const source = countedSource(10);
    const worked: number[] = [];
    let stop = false;
    await runPool(
      source.items,
      2,
      async (n) => {
        worked.push(n);
        await new Promise((resolve) => setImmediate(resolve));
        stop = true;
      },
      () => stop,
    );
    expect(worked).toEqual([0, 1]);
    expect(source.reads()).toBe(2);
  });
});
