/** The events of a cycle, and a low balance raised once per fall below the floor. */
import { describe, expect, it } from 'vitest';
import { newItem } from '../../../src/ensure/item.js';
import { LowBalanceWatch, cycleEvents } from '../../../src/service/events.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const AT = '2026-11-25T10:00:00.000Z';

describe('cycleEvents', () => {
  it('an order placed carries the order; a failed order its error; the rest raise nothing', () => {
    const order = sampleOrder({ address: 'TA' });
    const items = [
      { ...newItem('TA', 65_000, 0), reason: 'bought' as const, bought: order, to_buy: 65_000 },
      {
        ...newItem('TB', 65_000, 0),
        reason: 'failed' as const,
        to_buy: 65_000,
        error: { exit_code: 5, message: 'no' },
      },
      { ...newItem('TC', 65_000, 0), reason: 'failed' as const, error: { exit_code: 2, message: 'a contract' } },
      newItem('TD', 65_000, 65_000),
    ];
    expect(cycleEvents({ cycle: 1, at: AT, items }, AT)).toEqual([
      { event: 'order_placed', at: AT, address: 'TA', order },
      { event: 'order_failed', at: AT, address: 'TB', error: { exit_code: 5, message: 'no' } },
    ]);
  });

  it('a failed cycle raises no order event (alarms.ts raises cycle_failed once per run); --max-spend refusals none', () => {
    const error = { exit_code: 7, message: 'down' };
    expect(cycleEvents({ cycle: 4, at: AT, items: [], error }, AT)).toEqual([]);
    const refused = {
      ...newItem('TA', 65_000, 0),
      reason: 'spend_limit' as const,
      to_buy: 65_000,
      error: { exit_code: 5, message: 'would pass --max-spend' },
    };
    expect(cycleEvents({ cycle: 5, at: AT, items: [refused] }, AT)).toEqual([]);
  });
});

describe('LowBalanceWatch', () => {
  it('raises low_balance when the balance falls below the floor, once until it is back at or above it', () => {
    const watch = new LowBalanceWatch('10.000000');
    expect(watch.check('12.000000', AT)).toBeUndefined();
    expect(watch.check('9.999999', AT)).toEqual({
      event: 'low_balance',
      at: AT,
      available_trx: '9.999999',
      min_balance_trx: '10.000000',
    });
    expect(watch.check('5.000000', AT)).toBeUndefined();
    expect(watch.check('10.000000', AT)).toBeUndefined();
    expect(watch.check('9.000000', AT)).toMatchObject({ event: 'low_balance' });
  });
});
