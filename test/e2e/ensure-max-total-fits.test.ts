/**
 * `ensure --max-total` with `--place-what-fits` (issue 45): what fits under the cap is bought, in the order
 * given, the others fail unsent; without --place-what-fits, all or nothing as before. Five fresh addresses at
 * 3.7 TRX each (activation included) under --max-total 8. Counted at the sandbox.
 */
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { json } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });
const ordersTo = (addresses: readonly string[]) =>
  world.sandbox.orders().filter((order) => addresses.includes(order.address));

interface Items {
  items: { address: string; reason: string; error: { exit_code: number; message: string } | null }[];
}

describe('ensure --max-total', () => {
  it('with --place-what-fits: the first two (7.4 TRX) are bought, the three after fail unsent', async () => {
    const addresses = [45_401, 45_402, 45_403, 45_404, 45_405].map(freshAddress);
    const env = { ENERGY_TRON_NODE: world.sandbox.url };
    const result = await world.run(
      ['ensure', ...rentalArgs(addresses, '--max-total', '8', '--place-what-fits', '--yes', '--json')],
      { env },
    );
    // Some addresses failed, the others stand: exit 9 (partial).
    expect(result.code, result.stderr).toBe(9);
    const { items } = json<Items>(result);
    expect(items.map((item) => item.reason)).toEqual(['bought', 'bought', 'failed', 'failed', 'failed']);
    expect(items[2]!.error!.message).toMatch(/more than --max-total 8\.000000 has left/);
    const orders = ordersTo(addresses);
    expect(orders.map((order) => order.address).sort()).toEqual(addresses.slice(0, 2).sort());
  });

  it('without --place-what-fits: nothing bought (exit 5), as before', async () => {
    const addresses = [45_411, 45_412, 45_413].map(freshAddress);
    const result = await world.run(['ensure', ...rentalArgs(addresses, '--max-total', '8', '--yes', '--json')], {
      env: { ENERGY_TRON_NODE: world.sandbox.url },
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/the sum of the quotes 11\.1\d* TRX is above --max-total 8/);
    expect(ordersTo(addresses)).toHaveLength(0);
  });
});
