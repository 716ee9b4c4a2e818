/**
 * How each cycle moves the service's metrics, values asserted exactly (literals worked out by hand): the
 * last-success time holds through failed cycles, the available gauge takes the reading after --wait, an
 * address that failed before sizing is no failed order, a cycle with a failed address is a failed cycle,
 * and only delivered orders are spent.
 */
import { describe, expect, it } from 'vitest';
import type { EnsureItem } from '../../../src/ensure/ensure-types.js';
import { newItem } from '../../../src/ensure/item.js';
import { ServiceMetrics, cycleResult } from '../../../src/service/service-metrics.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const A = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
const B = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
// 2026-11-27T10:00:00Z is 1795773600 s.
const T0 = Date.UTC(2026, 10, 27, 10);

const lines = (metrics: ServiceMetrics) =>
  metrics
    .render()
    .split('\n')
    .filter((line) => !line.startsWith('#'));

describe('ServiceMetrics', () => {
  it('counts a cycle, its orders and its gauges exactly; the last success holds through failed cycles', () => {
    const metrics = new ServiceMetrics();
    const order = sampleOrder({ id: 'o1', address: A, total_trx: '3.900000' });
    // --wait: read 0 before the purchase, 65,000 once it arrived.
    const bought: EnsureItem = {
      ...newItem(A, 65_000, 0),
      reason: 'bought',
      bought: order,
      to_buy: 65_000,
      available_after: 65_000,
    };
    metrics.cycleEnded([bought, newItem(B, 65_000, 70_000)], false, T0 + 1_500);
    metrics.orderSettled(true, '3.900000');
    expect(lines(metrics)).toContain(`energy_address_available_energy{address="${A}"} 65000`);
    // A second cycle: B fails before it was sized (a contract: nothing to buy), A stands.
    const contract: EnsureItem = {
      ...newItem(B, 65_000, 0),
      reason: 'failed',
      error: { exit_code: 2, message: 'a contract' },
    };
    metrics.cycleEnded([newItem(A, 65_000, 65_000), contract], false, T0 + 61_500);
    // A third: the cycle could not finish.
    metrics.cycleEnded([], true, T0 + 121_500);
    // Another order delivered, one refunded.
    metrics.orderSettled(true, '3.900000');
    metrics.orderSettled(false, '3.900000');
    expect(lines(metrics)).toEqual([
      'energy_ensure_cycles_total{result="ok"} 1',
      'energy_ensure_cycles_total{result="spend_limit"} 0',
      'energy_ensure_cycles_total{result="failed"} 2',
      'energy_ensure_orders_total{result="placed"} 1',
      'energy_ensure_orders_total{result="elsewhere"} 0',
      'energy_ensure_orders_total{result="failed"} 0',
      'energy_ensure_orders_total{result="delivery_failed"} 1',
      'energy_ensure_spent_trx_total 7.800000',
      'energy_ensure_last_success_timestamp_seconds 1795773601.500',
      `energy_address_available_energy{address="${A}"} 65000`,
      `energy_address_available_energy{address="${B}"} 0`,
      `energy_address_target_energy{address="${A}"} 65000`,
      `energy_address_target_energy{address="${B}"} 65000`,
      `energy_address_in_flight_energy{address="${A}"} 0`,
      `energy_address_in_flight_energy{address="${B}"} 0`,
      `energy_address_failing{address="${A}"} 0`,
      `energy_address_failing{address="${B}"} 1`,
      '',
    ]);
  });

  it('an order that could not be placed, once sized, is a failed order', () => {
    const metrics = new ServiceMetrics();
    const refused: EnsureItem = {
      ...newItem(A, 65_000, 0),
      reason: 'failed',
      to_buy: 65_000,
      error: { exit_code: 5, message: 'above --max-total' },
    };
    metrics.cycleEnded([refused], false, T0);
    expect(lines(metrics)).toContain('energy_ensure_orders_total{result="failed"} 1');
    expect(lines(metrics)).toContain('energy_ensure_cycles_total{result="failed"} 1');
  });

  it('a cycle --max-spend held back is its own result, counted done, and its refusal is no failed order, cycle after cycle', () => {
    const metrics = new ServiceMetrics(T0);
    const held: EnsureItem = {
      ...newItem(A, 65_000, 0),
      reason: 'spend_limit',
      to_buy: 65_000,
      total_trx: '3.900000',
      error: { exit_code: 5, message: '3.900000 TRX would pass --max-spend 8/1h: …' },
    };
    for (let cycle = 1; cycle <= 3; cycle += 1)
      metrics.cycleEnded([held, newItem(B, 65_000, 70_000)], false, T0 + cycle * 60_000);
    metrics.spendLeft('0.200000', true);
    expect(lines(metrics)).toEqual(
      expect.arrayContaining([
        'energy_ensure_cycles_total{result="ok"} 0',
        'energy_ensure_cycles_total{result="spend_limit"} 3',
        'energy_ensure_cycles_total{result="failed"} 0',
        'energy_ensure_orders_total{result="failed"} 0',
        'energy_ensure_last_success_timestamp_seconds 1795773780.000',
        'energy_ensure_spend_left_trx 0.200000',
        'energy_ensure_spend_limit_reached 1',
      ]),
    );
    // Another address failing beside it makes the cycle failed.
    metrics.cycleEnded(
      [held, { ...newItem(B, 65_000, 0), reason: 'failed', error: { exit_code: 2, message: 'x' } }],
      false,
      T0,
    );
    expect(lines(metrics)).toContain('energy_ensure_cycles_total{result="failed"} 1');
    metrics.spendLeft('8.000000', false);
    expect(lines(metrics)).toContain('energy_ensure_spend_limit_reached 0');
  });
  it('exports the series of the addresses its last cycle decided only: one another host decided, or one left the list, is dropped', () => {
    const metrics = new ServiceMetrics();
    const C = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
    const elsewhere: EnsureItem = { ...newItem(B, 65_000, 0), available: null, reason: 'claimed_elsewhere' };
    const seriesOf = () =>
      lines(metrics)
        .filter((line) => line.startsWith('energy_address_'))
        .map((line) => line.replace(/ .*$/, ''));
    metrics.cycleEnded([newItem(A, 65_000, 70_000), newItem(B, 65_000, 70_000), newItem(C, 65_000, 0)], false, T0);
    expect(seriesOf()).toHaveLength(12);
    // B decided by another host this cycle, C no longer listed: their series go, A's stay.
    metrics.cycleEnded([newItem(A, 65_000, 70_000), elsewhere], false, T0 + 60_000);
    expect(seriesOf()).toEqual([
      `energy_address_available_energy{address="${A}"}`,
      `energy_address_target_energy{address="${A}"}`,
      `energy_address_in_flight_energy{address="${A}"}`,
      `energy_address_failing{address="${A}"}`,
    ]);
    // A cycle that failed before reading anything keeps what the last one said.
    metrics.cycleEnded([], true, T0 + 120_000);
    expect(seriesOf()).toHaveLength(4);
    // B back to this host: its series again.
    metrics.cycleEnded([newItem(A, 65_000, 70_000), newItem(B, 65_000, 1_000)], false, T0 + 180_000);
    expect(lines(metrics)).toContain(`energy_address_available_energy{address="${B}"} 1000`);
  });
});

describe('cycleResult: failures that stay local (issue 45)', () => {
  const stands = newItem(A, 65_000, 65_000);
  const own = (reason: EnsureItem['reason']): EnsureItem => ({
    ...newItem(B, 65_000, 0),
    reason,
    error: { exit_code: 8, message: 'its own' },
  });

  it('an address failing for a reason of its own beside one that stands: ok', () => {
    expect(cycleResult([stands, own('not_on_chain')], false)).toBe('ok');
    expect(cycleResult([stands, own('delivery_failed')], false)).toBe('ok');
  });

  it('every address failing for its own reasons (nothing supplied), or a failure not its own: failed', () => {
    expect(cycleResult([own('not_on_chain')], false)).toBe('failed');
    expect(cycleResult([stands, own('failed')], false)).toBe('failed');
    expect(cycleResult([stands], true)).toBe('failed');
  });
});
