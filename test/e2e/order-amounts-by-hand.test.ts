/**
 * What an order costs and what it leaves in the balance, as amounts worked out by hand, not by
 * domain/money.ts (which the sandbox shares with the client: a rounding bug in both would pass a test that
 * computes its expected value with it). A private sandbox starting at 100.000000 TRX, 0.000040 TRX per energy
 * for an hour, 1.100000 TRX to activate an address that never had a delivery. Spawned for real.
 */
import { describe, expect, it } from 'vitest';
import { balanceOf, freshAddress } from '../helpers/e2e.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const world = worldForSuite({ startingBalance: '100.000000', deliverAfterMs: 300 });

describe('order amounts, by hand', () => {
  it('65,000 energy for 1 h to a new address: 2.600000 + 1.100000 = 3.700000; then 123,000 energy to it: 4.920000, no activation', async () => {
    const target = freshAddress(35_101);
    const quote = await world.run(['quote', target, '--energy', '65000', '--hours', '1', '--json']);
    expect(json(quote)).toMatchObject({ energy_trx: '2.600000', activation_trx: '1.100000', total_trx: '3.700000' });

    const first = await world.run(orderCreateArgs(target, '--yes', '--wait', '--json'));
    expect(first.code, first.stderr).toBe(0);
    expect(json(first)).toMatchObject({ total_trx: '3.700000', delivery_final: true });
    // 100.000000 - 3.700000
    expect(await balanceOf(world)).toMatchObject({ available_trx: '96.300000', held_trx: '0.000000' });

    // Delivered once: no activation now. 123,000 energy at 0.000040: 4.920000.
    const second = await world.run([
      'order',
      'create',
      target,
      '--energy',
      '123000',
      '--hours',
      '1',
      '--yes',
      '--wait',
      '--json',
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(json(second)).toMatchObject({ total_trx: '4.920000' });
    // 96.300000 - 4.920000
    expect(await balanceOf(world)).toMatchObject({ available_trx: '91.380000', held_trx: '0.000000' });
    expect(world.sandbox.orders().filter((order) => order.address === target)).toHaveLength(2);
  });
});
