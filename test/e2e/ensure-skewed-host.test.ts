/**
 * A host whose clock is off runs its first `ensure`: the options and the order list are read at once and
 * both meet a 401 for the timestamp; one check of the server's clock (two readings that agree, issue 44)
 * corrects it and both are signed again. Before, the second call found the clock "already corrected" and the run failed with exit 3.
 * The spawned CLI's clock is shifted (test/fixtures/shift-clock.cjs); counted at the server.
 */
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { shiftedClockEnv } from '../helpers/shifted-clock.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });
const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

describe('ensure on a host whose clock is off', () => {
  it.each([
    ['15 minutes ahead', 15 * 60_000, 16_101],
    ['20 minutes behind', -20 * 60_000, 16_102],
  ])(
    'its first run, %s, buys once and exits 0',
    async (_, shiftMs, seed) => {
      const address = freshAddress(seed);
      const timeReads = world.sandbox.requestCount('/v1/time');
      const result = await world.run(['ensure', ...rentalArgs(address, '--yes', '--json')], {
        // A fresh config folder each time: no offset remembered from an earlier run.
        env: {
          ENERGY_TRON_NODE: world.sandbox.url,
          ENERGY_CONFIG_DIR: `${world.configDir}-${seed}`,
          ...shiftedClockEnv(shiftMs),
        },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ items: [{ address, reason: 'bought' }] });
      expect(ordersTo(address)).toHaveLength(1);
      // One check of the server's clock, shared by the run and the calls that met a 401: two readings, as
      // the first is more than 2 minutes from this host's clock (no offset remembered) and is read again.
      expect(world.sandbox.requestCount('/v1/time') - timeReads).toBe(2);
    },
    30_000,
  );
});
