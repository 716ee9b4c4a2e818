/**
 * A service cycle's server clock (ensure/cycle-clock.ts): read once for every claim slice of a cycle, never kept
 * into the next cycle (a new one each cycle), and a failed read not kept (the next slice reads again).
 */
import { describe, expect, it } from 'vitest';
import { onceACycle } from '../../../src/ensure/cycle-clock.js';
import type { ServerClock } from '../../../src/ordering/server-clock.js';

function reads() {
  const counted = { reads: 0 };
  const read = async (): Promise<ServerClock> => {
    counted.reads += 1;
    await Promise.resolve();
    return { offsetMs: counted.reads, nowMs: () => counted.reads };
  };
  return { counted, read };
}

describe("a service cycle's server clock", () => {
  it('the slices of a cycle share one reading; the next cycle reads again', async () => {
    const { counted, read } = reads();
    const cycle = onceACycle();
    const [a, b] = await Promise.all([cycle(read), cycle(read)]);
    expect(await cycle(read)).toBe(a);
    expect(b).toBe(a);
    expect(counted.reads).toBe(1);
    const next = onceACycle();
    expect((await next(read)).offsetMs).toBe(2);
    expect(counted.reads).toBe(2);
  });

  it('a read that failed is not kept: the next slice reads again', async () => {
    const { counted, read } = reads();
    let fail = true;
    const failing = async (): Promise<ServerClock> => {
      if (fail) {
        fail = false;
        throw new Error('503 on /v1/time');
      }
      return read();
    };
    const cycle = onceACycle();
    await expect(cycle(failing)).rejects.toThrow('503');
    expect((await cycle(failing)).offsetMs).toBe(1);
    expect(counted.reads).toBe(1);
  });
});
