/** The observer feeds the health rule what the metrics see: a cycle with a failed address is a failed cycle for /healthz too. */
import { httpGet } from '../../helpers/e2e.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { EnsureItem } from '../../../src/ensure/ensure-types.js';
import { newItem } from '../../../src/ensure/item.js';
import { ServiceObserver } from '../../../src/service/observer.js';
import { fakeClock } from '../../helpers/fake-clock.js';

/** An observer with metrics on 127.0.0.1, on a clock the test moves; its notes and its base URL. */
async function observerOnLoopback() {
  const notes: string[] = [];
  const clock = fakeClock(Date.UTC(2026, 10, 27, 10));
  const observer = await ServiceObserver.start(
    { metrics: { host: '127.0.0.1', port: 0 } },
    1000,
    (line) => notes.push(line),
    clock.now,
  );
  onTestFinished(() => observer.close());
  const url = /metrics at (\S+)\/metrics/.exec(notes.join('\n'))![1]!;
  return { observer, notes, clock, url };
}

/** Three cycles, a second apart, in which `failing` fails beside an address that stands. */
function threeCyclesFailing(
  { observer, clock }: Awaited<ReturnType<typeof observerOnLoopback>>,
  reason: EnsureItem['reason'],
  error: NonNullable<EnsureItem['error']>,
): void {
  const failing: EnsureItem = { ...newItem('TA', 65_000, 0), reason, error };
  for (let cycle = 1; cycle <= 3; cycle += 1) {
    clock.advance(1000);
    observer.cycleEnded({
      cycle,
      at: new Date(clock.now()).toISOString(),
      items: [failing, newItem('TB', 65_000, 65_000)],
    });
  }
}

describe('ServiceObserver', () => {
  it('three cycles in a row with a failed address (each cycle ran to its end) turn /healthz 503', async () => {
    const service = await observerOnLoopback();
    const { notes, url } = service;
    // Not the address's own trouble (its order refused by the API, as every order would be): the cycle fails.
    threeCyclesFailing(service, 'failed', { exit_code: 5, message: 'the balance cannot pay for it' });
    const health = await httpGet(`${url}/healthz`);
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body)).toEqual({
      status: 'unhealthy',
      healthy: false,
      reason: 'the last 3 cycles failed',
      failures_in_a_row: 3,
      last_success_at: null,
    });
    expect(notes).toContain('energy: TA is failing (failed): the balance cannot pay for it');
  });

  it('three cycles with one address failing for a reason of its own (not_on_chain) beside one that stands: /healthz 200', async () => {
    const service = await observerOnLoopback();
    const { notes, url } = service;
    threeCyclesFailing(service, 'not_on_chain', { exit_code: 8, message: 'the node does not show it' });
    expect((await httpGet(`${url}/healthz`)).status).toBe(200);
    expect(notes.filter((line) => line.startsWith('energy: TA is failing'))).toEqual([
      'energy: TA is failing (not_on_chain): the node does not show it',
    ]);
  });

  it('--metrics 0x0:PORT (which binds 0.0.0.0) is said to listen on every interface, as the socket got it', async () => {
    const notes: string[] = [];
    const observer = await ServiceObserver.start({ metrics: { host: '0x0', port: 0 } }, 1000, (line) =>
      notes.push(line),
    );
    onTestFinished(() => observer.close());
    expect(notes.join('\n')).toMatch(
      /^energy: metrics at http:\/\/127\.0\.0\.1:\d+\/metrics, probes at http:\/\/127\.0\.0\.1:\d+\/livez and http:\/\/127\.0\.0\.1:\d+\/readyz \(listening on every interface, 0\.0\.0\.0: other machines can reach it unless a firewall stops them\)$/,
    );
  });

  it('--max-spend: the gauge says one more order does not fit as soon as it does not; /readyz 503 and /livez 200 meanwhile; the note says the price, never "reached" with the whole ceiling left', async () => {
    const { observer, notes, clock, url } = await observerOnLoopback();
    const limit = { trx: '8.000000', windowMs: 3_600_000, text: '8/1h' };
    const bought: EnsureItem = { ...newItem('TA', 65_000, 0), reason: 'bought', to_buy: 65_000, total_trx: '3.900000' };
    const cycle = (n: number, items: EnsureItem[]) => {
      clock.advance(1000);
      observer.cycleEnded({ cycle: n, at: new Date(clock.now()).toISOString(), items });
    };
    // 4.1 left after one order of 3.9: another fits.
    cycle(1, [bought]);
    observer.spendChecked('4.100000', [bought], limit);
    const gauge = async () =>
      /\nenergy_ensure_spend_limit_reached (\d)\n/.exec((await httpGet(`${url}/metrics`)).body)?.[1];
    expect(await gauge()).toBe('0');
    // 0.2 left after the second: one more does not fit, before any order is refused.
    cycle(2, [bought]);
    observer.spendChecked('0.200000', [bought], limit);
    expect(await gauge()).toBe('1');
    expect((await httpGet(`${url}/readyz`)).status).toBe(503);
    expect(JSON.parse((await httpGet(`${url}/readyz`)).body).reason).toBe(
      '--max-spend 8/1h: 0.200000 TRX left, less than one order (3.900000 TRX)',
    );
    expect((await httpGet(`${url}/livez`)).status).toBe(200);
    const held: EnsureItem = {
      ...newItem('TA', 65_000, 0),
      reason: 'spend_limit',
      to_buy: 65_000,
      total_trx: '3.900000',
      error: { exit_code: 5, message: 'x' },
    };
    for (const n of [3, 4, 5]) {
      cycle(n, [held]);
      observer.spendChecked('0.200000', [held], limit);
    }
    expect((await httpGet(`${url}/livez`)).status).toBe(200);
    expect(notes.filter((line) => line.includes('--max-spend'))).toEqual([
      'energy: --max-spend 8/1h has 0.200000 TRX left, less than an order (3.900000 TRX): nothing more is ordered until orders leave the window',
    ]);
    // A ceiling below one order: said as such, never "reached" with all of it left.
    const small = { trx: '1.000000', windowMs: 3_600_000, text: '1/1h' };
    const other = await ServiceObserver.start({}, 1000, (line) => notes.push(line), clock.now);
    onTestFinished(() => other.close());
    other.spendChecked('1.000000', [held], small);
    expect(notes.at(-1)).toBe(
      'energy: an order of 3.900000 TRX is more than --max-spend 1/1h allows in any window (1.000000 TRX): it is never ordered under it',
    );
  });
});

describe('ServiceObserver and --max-spend', () => {
  const limit = { trx: '8.000000', windowMs: 3_600_000, text: '8/1h' };
  const quoted = (total: string): EnsureItem => ({ ...newItem('TA', 65_000, 0), reason: 'bought', total_trx: total });

  it('exactly one order left is room for it: /readyz 200, the gauge 0; a sun less is reached: 503, the gauge 1', async () => {
    const { observer, url } = await observerOnLoopback();
    observer.spendChecked('3.900000', [quoted('3.900000')], limit);
    expect((await httpGet(`${url}/readyz`)).status).toBe(200);
    expect((await httpGet(`${url}/metrics`)).body).toContain('\nenergy_ensure_spend_limit_reached 0\n');
    observer.spendChecked('3.899999', [quoted('3.900000')], limit);
    expect((await httpGet(`${url}/readyz`)).status).toBe(503);
    expect((await httpGet(`${url}/metrics`)).body).toContain('\nenergy_ensure_spend_limit_reached 1\n');
  });
});
