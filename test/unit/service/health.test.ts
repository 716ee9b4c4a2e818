/** /healthz's rule on a fake clock: failures in a row, and a service whose cycles stopped ending. */
import { describe, expect, it } from 'vitest';
import { Health, staleAfterMs } from '../../../src/service/health.js';

const EVERY = 1000;

describe('Health', () => {
  it('is healthy at the start and while cycles succeed', () => {
    const health = new Health(EVERY, 0);
    expect(health.report(10).healthy).toBe(true);
    health.cycleEnded(true, 1000);
    expect(health.report(1500)).toMatchObject({
      healthy: true,
      reason: 'ok',
      last_success_at: new Date(1000).toISOString(),
    });
  });

  it('turns unhealthy on the third failure in a row, not the second, and back on a success', () => {
    const health = new Health(EVERY, 0);
    health.cycleEnded(false, 1000);
    health.cycleEnded(false, 2000);
    expect(health.report(2000).healthy).toBe(true);
    health.cycleEnded(false, 3000);
    expect(health.report(3000)).toMatchObject({
      healthy: false,
      reason: 'the last 3 cycles failed',
      failures_in_a_row: 3,
    });
    health.cycleEnded(true, 4000);
    expect(health.report(4000).healthy).toBe(true);
  });

  it('turns unhealthy when no cycle has ended for three intervals and a minute', () => {
    const health = new Health(EVERY, 0);
    health.cycleEnded(true, 1000);
    expect(health.report(1000 + staleAfterMs(EVERY)).healthy).toBe(true);
    expect(health.report(1001 + staleAfterMs(EVERY))).toMatchObject({
      healthy: false,
      reason: 'no cycle has ended for 63 s',
    });
  });
});
