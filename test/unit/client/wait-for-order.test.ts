/** Following an order backs off: quick first reads, then one every 15 s, and a last read at the deadline. */
import { describe, expect, it } from 'vitest';
import { waitUntilFinal } from '../../../src/client/wait-for-order.js';
import { WaitTimeoutError } from '../../../src/domain/errors.js';
import { orderWaitWorld } from '../../helpers/order-waiting.js';
import { sampleOrder } from '../../helpers/sample-order.js';

describe('waitUntilFinal', () => {
  it('pauses 1, 2, 4, 8 s, then 15 s at most, and reads once more at the deadline', async () => {
    const { client, reads, options } = orderWaitWorld();
    const wait = waitUntilFinal(client, sampleOrder(), { ...options, intervalMs: 1000, timeoutMs: 60_000 });
    await expect(wait).rejects.toBeInstanceOf(WaitTimeoutError);
    expect(reads).toEqual([1000, 3000, 7000, 15_000, 30_000, 45_000, 60_000]);
  });

  it('reads fewer than 12 times in 20 s (it read 20 times at a steady second)', async () => {
    const { client, reads, options } = orderWaitWorld();
    await expect(
      waitUntilFinal(client, sampleOrder(), { ...options, intervalMs: 1000, timeoutMs: 20_000 }),
    ).rejects.toThrow(/after 20s/);
    expect(reads.length).toBeLessThan(12);
    expect(reads.at(-1)).toBe(20_000);
  });

  it('keeps a shorter first pause injectable (tests, ensure) and doubles from it', async () => {
    const { client, reads, options } = orderWaitWorld(1000);
    const final = await waitUntilFinal(client, sampleOrder(), { ...options, intervalMs: 50, timeoutMs: 10_000 });
    expect(final.delivery_final).toBe(true);
    expect(reads).toEqual([50, 150, 350, 750, 1550]);
  });

  it('reads nothing for an order that is already final', async () => {
    const { client, reads, options } = orderWaitWorld();
    const done = sampleOrder({ delivery_final: true });
    expect(await waitUntilFinal(client, done, { ...options, intervalMs: 1000, timeoutMs: 1000 })).toBe(done);
    expect(reads).toEqual([]);
  });
});
