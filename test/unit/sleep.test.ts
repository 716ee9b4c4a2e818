import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/domain/sleep.js';

describe('sleep', () => {
  it('resolves after the pause', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it('rejects with the reason at once when the signal fires, and when it has already fired', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('SIGINT'));
    await expect(pending).rejects.toThrow('SIGINT');
    await expect(sleep(60_000, controller.signal)).rejects.toThrow('SIGINT');
  });
});
