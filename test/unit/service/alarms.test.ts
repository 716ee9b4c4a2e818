/** Alarms an on-call can act on: one per change (a run of failures starting, ending), reminders at most hourly. */
import { describe, expect, it } from 'vitest';
import type { EnsureItem } from '../../../src/ensure/ensure-types.js';
import { newItem } from '../../../src/ensure/item.js';
import { Alarms } from '../../../src/service/alarms.js';
import type { CycleReport } from '../../../src/service/service-loop.js';

const T0 = Date.UTC(2026, 10, 27, 10);
const down = { exit_code: 7, message: 'HTTP 503' };
const failed = (address: string): EnsureItem => ({
  ...newItem(address, 65_000, 0),
  reason: 'delivery_failed',
  error: { exit_code: 8, message: 'failed at delivery' },
});
const fine = (address: string): EnsureItem => newItem(address, 65_000, 65_000);

describe('Alarms', () => {
  it('an outage of 30 cycles raises one cycle_failed and one recovered; a reminder after an hour of it', () => {
    const alarms = new Alarms();
    const raised = [];
    for (let cycle = 1; cycle <= 30; cycle += 1) {
      const report: CycleReport = { cycle, at: '', items: [], error: down };
      raised.push(...alarms.cycleEnded(report, T0 + cycle * 2_000));
    }
    raised.push(...alarms.cycleEnded({ cycle: 31, at: '', items: [fine('TA')] }, T0 + 62_000));
    expect(raised).toEqual([
      {
        event: 'cycle_failed',
        at: '2026-11-27T10:00:02.000Z',
        cycle: 1,
        error: down,
        failed_cycles: 1,
        since: '2026-11-27T10:00:02.000Z',
        reminder: false,
      },
      {
        event: 'recovered',
        at: '2026-11-27T10:01:02.000Z',
        cycle: 31,
        failed_cycles: 30,
        since: '2026-11-27T10:00:02.000Z',
      },
    ]);
    // A long outage: the first, then one reminder an hour on, not one per cycle.
    const reminders = [];
    for (let cycle = 1; cycle <= 100; cycle += 1) {
      const report: CycleReport = { cycle, at: '', items: [], error: down };
      reminders.push(...alarms.cycleEnded(report, T0 + cycle * 60_000));
    }
    expect(
      reminders.map((event) => [event.event, 'reminder' in event && event.reminder, 'cycle' in event && event.cycle]),
    ).toEqual([
      ['cycle_failed', false, 1],
      ['cycle_failed', true, 61],
    ]);
  });

  it('an address failing cycle after cycle raises address_failed once, with its reason; address_recovered when it stands again', () => {
    const alarms = new Alarms();
    const raised = [];
    for (let cycle = 1; cycle <= 10; cycle += 1) {
      // Every third cycle orders for it again (bought): that neither ends nor restarts its run.
      const item =
        cycle % 3 === 0 ? { ...newItem('TA', 65_000, 0), reason: 'bought' as const, to_buy: 65_000 } : failed('TA');
      raised.push(...alarms.cycleEnded({ cycle, at: '', items: [item, fine('TB')] }, T0 + cycle * 1_000));
    }
    raised.push(...alarms.cycleEnded({ cycle: 11, at: '', items: [fine('TA'), fine('TB')] }, T0 + 11_000));
    expect(raised).toEqual([
      {
        event: 'address_failed',
        at: '2026-11-27T10:00:01.000Z',
        address: 'TA',
        reason: 'delivery_failed',
        error: { exit_code: 8, message: 'failed at delivery' },
      },
      { event: 'address_recovered', at: '2026-11-27T10:00:11.000Z', address: 'TA', failed_cycles: 7 },
    ]);
  });

  it('an address --max-spend holds back is not failing: no address_failed (spend_limit_reached says it, once)', () => {
    const alarms = new Alarms();
    const held: EnsureItem = {
      ...newItem('TA', 65_000, 0),
      reason: 'spend_limit',
      to_buy: 65_000,
      error: { exit_code: 5, message: '3.900000 TRX would pass --max-spend 8/1h' },
    };
    const raised = [1, 2, 3].flatMap((cycle) => alarms.cycleEnded({ cycle, at: '', items: [held] }, T0 + cycle));
    expect(raised).toEqual([]);
  });
});
