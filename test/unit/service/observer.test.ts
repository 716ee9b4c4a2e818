/** The observer feeds the health rule what the metrics see: a cycle with a failed address is a failed cycle for /healthz too. */
import { httpGet } from '../../helpers/e2e.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { EnsureItem } from '../../../src/ensure/ensure-types.js';
import { newItem } from '../../../src/ensure/item.js';
import { ServiceObserver } from '../../../src/service/observer.js';

describe('ServiceObserver', () => {
  it('three cycles in a row with a failed address (each cycle ran to its end) turn /healthz 503', async () => {
    const notes: string[] = [];
    let now = Date.UTC(2026, 10, 27, 10);
    const observer = await ServiceObserver.start(
      { metrics: { host: '127.0.0.1', port: 0 } },
      1000,
      (line) => notes.push(line),
      () => now,
    );
    onTestFinished(() => observer.close());
    const url = /metrics at (\S+)\/metrics/.exec(notes.join('\n'))![1]!;
    const failing: EnsureItem = {
      ...newItem('TA', 65_000, 0),
      reason: 'not_on_chain',
      error: { exit_code: 8, message: 'the node does not show it' },
    };
    for (let cycle = 1; cycle <= 3; cycle += 1) {
      now += 1000;
      observer.cycleEnded({ cycle, at: new Date(now).toISOString(), items: [failing, newItem('TB', 65_000, 65_000)] });
    }
    const health = await httpGet(`${url}/healthz`);
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body)).toEqual({
      status: 'unhealthy',
      healthy: false,
      reason: 'the last 3 cycles failed',
      failures_in_a_row: 3,
      last_success_at: null,
    });
    expect(notes).toContain('energy: TA is failing (not_on_chain): the node does not show it');
  });

  it('--metrics 0x0:PORT (which binds 0.0.0.0) is said to listen on every interface, as the socket got it', async () => {
    const notes: string[] = [];
    const observer = await ServiceObserver.start({ metrics: { host: '0x0', port: 0 } }, 1000, (line) =>
      notes.push(line),
    );
    onTestFinished(() => observer.close());
    expect(notes.join('\n')).toMatch(
      /^energy: metrics at http:\/\/127\.0\.0\.1:\d+\/metrics, health at http:\/\/127\.0\.0\.1:\d+\/healthz \(listening on every interface, 0\.0\.0\.0: other machines can reach it unless a firewall stops them\)$/,
    );
  });
});
