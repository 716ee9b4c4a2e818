/**
 * `ensure` counts energy in flight from two sources, the account's order list and this machine's journal.
 * An order the server committed while its answer was lost is in both: counted twice, the next run would buy
 * too little for good (until expiry); it must be counted once.
 */
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { freshAddress } from '../helpers/e2e.js';
import { json } from '../helpers/world.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

interface Item {
  address: string;
  available: number;
  in_flight: number;
  target: number;
  reason: string;
  to_buy: number;
  bought: Order | null;
}

// Delivery far away: the first order stays in flight for the whole test.
const world = worldForSuite({ deliverAfterMs: 120_000 });

const ensure = (args: string[]) => world.run(['ensure', ...args], { env: { ENERGY_TRON_NODE: world.sandbox.url } });
const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

describe('ensure: an order both listed by the server and pending in the journal', () => {
  it('is counted once in flight, so the next run buys the rest of the shortfall', async () => {
    const address = freshAddress(16_900);
    // Committed at the server, answer lost, no retry: the journal keeps the request pending.
    world.sandbox.inject({ kind: 'drop-after-commit', match: { method: 'POST', path: '/v1/energy/orders' } });
    const lost = await world.run(
      orderCreateArgs(address, '--yes', '--retries', '0', '--client-request-id', `listed-and-pending-${address}`),
    );
    expect(lost.code, lost.stderr).toBe(7);
    expect(ordersTo(address)).toHaveLength(1);
    const pending = await world.run(['order', 'pending', '--json']);
    expect(json<{ items: { client_request_id: string }[] }>(pending).items).toContainEqual(
      expect.objectContaining({ client_request_id: `listed-and-pending-${address}` }),
    );

    const result = await ensure([address, '--energy', '130000', '--hours', '1', '--yes', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const [item] = json<{ items: Item[] }>(result).items;
    expect(item).toMatchObject({ available: 0, in_flight: 65_000, target: 130_000, reason: 'bought', to_buy: 65_000 });
    const orders = ordersTo(address);
    expect(orders).toHaveLength(2);
    expect(orders.map((order) => order.energy)).toEqual([65_000, 65_000]);
  });
});
