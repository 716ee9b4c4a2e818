/**
 * `getaccount` once per address for the fleet (issue 47 item 3): an address one host's run found to be an
 * account (no contract) is not asked of the node again by another host sharing the database; without a shared
 * store each process asks for itself. Counted at the sandbox's node.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'accounts the fleet knows', () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);

  it('two hosts, one after the other, dry runs on the same 3 short accounts: getaccount 3 times in all, not 6; in state folders, 6', async () => {
    const addresses = [0, 1, 2].map((n) => {
      const address = freshAddress(42_000 + n);
      world.sandbox.seedTronAccount(address, { activated: true });
      return address;
    });
    const host = (shared: boolean) => ({
      ...(shared ? cluster.current.env : { ENERGY_STATE_URL: '' }),
      ENERGY_TRON_NODE: world.sandbox.url,
      ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-accounts-')),
    });
    const asked = () => world.sandbox.requestCount('/wallet/getaccount');
    const args = ['ensure', ...rentalArgs(addresses, '--dry-run', '--json')];
    for (const shared of [true, false]) {
      const before = asked();
      for (const env of [host(shared), host(shared)]) {
        const result = await world.run(args, { env });
        expect(result.code, result.stderr).toBe(0);
      }
      expect(asked() - before).toBe(shared ? 3 : 6);
    }
    expect(world.sandbox.orders().filter((order) => addresses.includes(order.address))).toHaveLength(0);
    expect(cluster.current.sql('SELECT count(*) FROM energy.known_account')).toBe('3');
  }, 60_000);
});
