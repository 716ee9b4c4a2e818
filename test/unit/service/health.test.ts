/** The probes' rules on a fake clock: failures in a row, a service whose cycles stopped ending, a full --max-spend window. */
import { describe, expect, it } from 'vitest';
import { Health, staleAfterMs } from '../../../src/service/health.js';

const EVERY = 1000;

describe('Health', () => {
  it('is healthy at the start and while cycles succeed', () => {
    const health = new Health(EVERY, 0);
    expect(health.report(10).healthy).toBe(true);
    health.cycleEnded('ok', 1000);
    expect(health.report(1500)).toMatchObject({
      healthy: true,
      reason: 'ok',
      last_success_at: new Date(1000).toISOString(),
    });
  });

  it('turns unhealthy on the third failure in a row, not the second, and back on a success', () => {
    const health = new Health(EVERY, 0);
    health.cycleEnded('failed', 1000);
    health.cycleEnded('failed', 2000);
    expect(health.report(2000).healthy).toBe(true);
    health.cycleEnded('failed', 3000);
    expect(health.report(3000)).toMatchObject({
      healthy: false,
      reason: 'the last 3 cycles failed',
      failures_in_a_row: 3,
    });
    health.cycleEnded('ok', 4000);
    expect(health.report(4000).healthy).toBe(true);
  });

  it('turns unhealthy when no cycle has ended for three intervals and a minute', () => {
    const health = new Health(EVERY, 0);
    health.cycleEnded('ok', 1000);
    expect(health.report(1000 + staleAfterMs(EVERY)).healthy).toBe(true);
    expect(health.report(1001 + staleAfterMs(EVERY))).toMatchObject({
      healthy: false,
      reason: 'no cycle has ended for 63 s',
    });
  });

  it('measures staleness from the last cycle that ended, failed or not, not from the last success', () => {
    const health = new Health(EVERY, 0);
    health.cycleEnded('ok', 1000);
    // Two failures (below the limit), the last ending just now, 100 s after the success.
    health.cycleEnded('failed', 100_000);
    health.cycleEnded('failed', 101_000);
    expect(health.report(101_500)).toEqual({
      healthy: true,
      reason: 'ok',
      failures_in_a_row: 2,
      last_success_at: '1970-01-01T00:00:01.000Z',
    });
  });

  it('says when --max-spend has no room for one more order, and no longer once it has', () => {
    const health = new Health(EVERY, 0);
    health.spendLimit('--max-spend 8/1h: 0.200000 TRX left, less than one order (3.900000 TRX)');
    expect(health.report(10)).toMatchObject({
      healthy: false,
      reason: '--max-spend 8/1h: 0.200000 TRX left, less than one order (3.900000 TRX)',
      spend_limit: '--max-spend 8/1h: 0.200000 TRX left, less than one order (3.900000 TRX)',
    });
    health.spendLimit(undefined);
    expect(health.report(20)).toEqual({ healthy: true, reason: 'ok', failures_in_a_row: 0, last_success_at: null });
  });

  it('is live while cycles end, whether they fail or meet --max-spend: only a stuck service is not', () => {
    const health = new Health(EVERY, 0);
    for (let at = 1000; at <= 5000; at += 1000) health.cycleEnded('failed', at);
    health.spendLimit('--max-spend 8/1h: 0.200000 TRX left, less than one order (3.900000 TRX)');
    expect(health.report(5000)).toMatchObject({ healthy: false, reason: 'the last 5 cycles failed' });
    expect(health.live(5000)).toEqual({ healthy: true, reason: 'ok', last_cycle_at: '1970-01-01T00:00:05.000Z' });
    expect(health.live(5001 + staleAfterMs(EVERY))).toEqual({
      healthy: false,
      reason: 'no cycle has ended for 63 s',
      last_cycle_at: '1970-01-01T00:00:05.000Z',
    });
  });

  it('a cycle held back by --max-spend is no failure: it ends a run of failures and counts as done', () => {
    const health = new Health(EVERY, 0);
    health.cycleEnded('failed', 1000);
    health.cycleEnded('failed', 2000);
    health.cycleEnded('spend_limit', 3000);
    health.cycleEnded('failed', 4000);
    expect(health.report(4000)).toEqual({
      healthy: true,
      reason: 'ok',
      failures_in_a_row: 1,
      last_success_at: '1970-01-01T00:00:03.000Z',
    });
  });
});
