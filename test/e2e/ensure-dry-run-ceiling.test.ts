/**
 * `ensure --dry-run --max-spend` models the ceiling (issue 45): five short addresses at 3.7 TRX each under
 * --max-spend 8/1h would buy two and hold back three, each marked spend_limit, with a total line; nothing is
 * held (a second dry run says the same) and nothing ordered. Then the real run buys the two the dry run said.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { json } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });

interface Items {
  items: { address: string; reason: string; error: { exit_code: number; message: string } | null }[];
}

describe('ensure --dry-run --max-spend', () => {
  it('marks what the ceiling would hold back, holds nothing, and the real run agrees', async () => {
    const addresses = [45_501, 45_502, 45_503, 45_504, 45_505].map(freshAddress);
    const env = { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-dry-')) };
    const args = ['ensure', ...rentalArgs(addresses, '--max-spend', '8/1h', '--json')];
    for (let run = 0; run < 2; run += 1) {
      const result = await world.run([...args, '--dry-run'], { env });
      const { items } = json<Items>(result);
      expect(items.map((item) => item.reason)).toEqual([
        'would_buy',
        'would_buy',
        'spend_limit',
        'spend_limit',
        'spend_limit',
      ]);
      expect(items[2]!.error!.message).toMatch(/3\.700000 TRX would pass --max-spend 8\/1h \(8\.000000 TRX left/);
      // As the real run: the ones held back are failures of the run (exit 9, the others stand).
      expect(result.code).toBe(9);
      expect(result.stderr).toContain(
        '--max-spend 8/1h has 8.000000 TRX left: a real run would buy 2 of these 5 (7.400000 TRX) and hold back 3 (11.100000 TRX)',
      );
    }
    expect(world.sandbox.requestCount('/v1/energy/orders', 'POST')).toBe(0);
    const real = await world.run([...args, '--yes'], { env });
    expect(json<Items>(real).items.map((item) => item.reason)).toEqual([
      'bought',
      'bought',
      'spend_limit',
      'spend_limit',
      'spend_limit',
    ]);
    expect(
      world.sandbox
        .orders()
        .map((order) => order.address)
        .sort(),
    ).toEqual(addresses.slice(0, 2).sort());
  });
});
