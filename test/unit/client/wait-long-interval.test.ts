/**
 * `order wait --interval` above the 15 s cap is kept as asked: the cap bounds how far the pauses grow, it
 * never shortens a pause the user chose. On a fake clock that sleeping moves on.
 */
import { describe, expect, it } from 'vitest';
import { waitUntilFinal } from '../../../src/client/wait-for-order.js';
import { WaitTimeoutError } from '../../../src/domain/errors.js';
import { orderWaitWorld } from '../../helpers/order-waiting.js';
import { sampleOrder } from '../../helpers/sample-order.js';

describe('a first pause above the cap', () => {
  it('30 s asked: a read every 30 s, to the deadline (2 min)', async () => {
    const { client, reads, options } = orderWaitWorld();
    const wait = waitUntilFinal(client, sampleOrder(), { ...options, intervalMs: 30_000, timeoutMs: 120_000 });
    await expect(wait).rejects.toBeInstanceOf(WaitTimeoutError);
    expect(reads).toEqual([30_000, 60_000, 90_000, 120_000]);
  });

  it('20 s asked with a 15 s cap given: 20 s apart, never 15', async () => {
    const { client, reads, options } = orderWaitWorld();
    const wait = waitUntilFinal(client, sampleOrder(), {
      ...options,
      intervalMs: 20_000,
      maxIntervalMs: 15_000,
      timeoutMs: 60_000,
    });
    await expect(wait).rejects.toBeInstanceOf(WaitTimeoutError);
    expect(reads).toEqual([20_000, 40_000, 60_000]);
  });
});
