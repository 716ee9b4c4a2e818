/** Bounded concurrency over a stream of work: what keeps a batch fast without holding its lines in memory. */

/**
 * Runs `work` on each item with at most `concurrency` at once, taking items only as slots free up. Stops
 * taking new items once `stopped()` is true (the items in progress finish): asked before an item is read
 * and again once it is, since reading (a file's next line) can take as long as a signal needs to arrive.
 * The first failure of `work` or of the item source stops the rest and is rethrown once everything in
 * progress has ended.
 */
export async function runPool<T>(
  items: AsyncIterable<T>,
  concurrency: number,
  work: (item: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  const iterator = items[Symbol.asyncIterator]();
  let failed = false;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (!failed && !stopped()) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
        if (next.done === true || failed || stopped()) return;
        await work(next.value);
      } catch (error) {
        if (!failed) [failed, failure] = [true, error];
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failed) throw failure;
}

/** Runs `work` over `items`, at most `limit` at once, and keeps the results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  async function* indexed(): AsyncGenerator<number> {
    for (let index = 0; index < items.length; index += 1) yield index;
  }
  await runPool(indexed(), Math.max(1, Math.min(limit, items.length)), async (index) => {
    results[index] = await work(items[index]!, index);
  });
  return results;
}
