/** domain/pool: bounded concurrency over a stream of items, stopping and failing as batch and ensure rely on. */
import { describe, expect, it } from 'vitest';
import { mapLimit, runPool } from '../../src/domain/pool.js';

/** A promise settled from outside: each item's work ends when the test says so, not on a timer. */
function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void; fail: (error: Error) => void } {
  let open!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

/** Lets every pending callback run (the pool's awaits), without waiting for any time to pass. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function* numbers(count: number, onRead: (n: number) => void = () => {}): AsyncGenerator<number> {
  for (let n = 0; n < count; n += 1) {
    onRead(n);
    yield n;
  }
}

/** Items whose work waits on its own gate; records which started and how many ran at once. */
function gatedWork(count: number) {
  const gates = Array.from({ length: count }, () => gate());
  const started: number[] = [];
  let running = 0;
  let peak = 0;
  const work = async (n: number) => {
    started.push(n);
    running += 1;
    peak = Math.max(peak, running);
    try {
      await gates[n]!.promise;
    } finally {
      running -= 1;
    }
  };
  return { gates, started, work, peak: () => peak };
}

describe('runPool', () => {
  it('runs at most `concurrency` at once, taking the next item only when a slot frees up', async () => {
    const { gates, started, work, peak } = gatedWork(5);
    const done = runPool(numbers(5), 2, work);
    await settle();
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await done;
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak()).toBe(2);
  });

  it('once stopped takes no new item; the items in progress finish', async () => {
    const { gates, started, work } = gatedWork(6);
    let stopped = false;
    let finished = 0;
    const done = runPool(
      numbers(6),
      2,
      async (n) => {
        await work(n);
        finished += 1;
      },
      () => stopped,
    );
    await settle();
    stopped = true;
    for (const g of gates) g.open();
    await done;
    expect(started).toEqual([0, 1]);
    expect(finished).toBe(2);
  });

  it('an item read after the stop is not worked on (the stop came while the source was reading)', async () => {
    let stopped = false;
    const started: number[] = [];
    await runPool(
      numbers(4, (n) => {
        if (n === 2) stopped = true;
      }),
      1,
      async (n) => {
        started.push(n);
      },
      () => stopped,
    );
    expect(started).toEqual([0, 1]);
  });

  it('rethrows the first failure once the items in progress have ended, and takes no item after it', async () => {
    const { gates, started, work } = gatedWork(5);
    let settled = false;
    const done = runPool(numbers(5), 2, work).finally(() => {
      settled = true;
    });
    done.catch(() => {});
    await settle();
    expect(started).toEqual([0, 1]);
    gates[0]!.fail(new Error('line 0 failed'));
    await settle();
    expect(settled).toBe(false);
    gates[1]!.fail(new Error('line 1 failed too'));
    await expect(done).rejects.toThrow('line 0 failed');
    expect(started).toEqual([0, 1]);
  });

  it("rethrows the source's own failure", async () => {
    async function* broken(): AsyncGenerator<number> {
      yield 0;
      throw new Error('the file could not be read');
    }
    const seen: number[] = [];
    await expect(runPool(broken(), 3, async (n) => void seen.push(n))).rejects.toThrow('the file could not be read');
    expect(seen).toEqual([0]);
  });
});

describe('mapLimit', () => {
  it('keeps the results in input order whatever order the work ends in', async () => {
    const gates = Array.from({ length: 4 }, () => gate<string>());
    const done = mapLimit(['a', 'b', 'c', 'd'], 4, async (item, index) => `${item}${await gates[index]!.promise}`);
    for (const index of [3, 1, 2, 0]) {
      gates[index]!.open(String(index));
      await settle();
    }
    expect(await done).toEqual(['a0', 'b1', 'c2', 'd3']);
  });

  it('never runs more than the limit at once, and an empty list does nothing', async () => {
    const { gates, work, peak } = gatedWork(6);
    const done = mapLimit([0, 1, 2, 3, 4, 5], 2, work);
    for (const g of gates) {
      await settle();
      g.open();
    }
    await done;
    expect(peak()).toBe(2);
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });
});
