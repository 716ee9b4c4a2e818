/**
 * `ensure --max-spend` shared through PostgreSQL: two services on two hosts (separate state folders, one
 * database) keep one ceiling between them, not one each. Counted at the sandbox.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();

const refusals = (running: RunningCli) =>
  running
    .output()
    .stdout.split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"spend_limit"')).length;

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'ensure --max-spend shared in PostgreSQL', () => {
  // An order delivers after 100 ms and its "hour" lasts 2 s: a need comes back every ~2 s.
  const world = worldForSuite({ deliverAfterMs: 100, hourMs: 2_000, rateLimit: false });
  const cluster = clusterForSuite(bin);

  it('two services on two hosts sharing one --max-spend 8/1h: at most 2 orders of 3.9 TRX between them', async () => {
    const address = freshAddress(33_101);
    // Activated already (no activation fee), 0.000060 TRX per energy for 1 h: 65,000 energy is 3.900000 TRX.
    world.sandbox.seedTronAccount(address, { activated: true });
    world.sandbox.setRates({ 1: '0.000060' });
    const args = ['ensure', ...rentalArgs(address, '--yes', '--every', '300ms', '--max-spend', '8/1h', '--json')];
    const services = [1, 2].map(() =>
      world.spawn(args, {
        env: {
          ...cluster.current.env,
          ENERGY_TRON_NODE: world.sandbox.url,
          ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-fleet-')),
        },
      }),
    );
    for (const service of services) onTestFinished(() => void service.child.kill('SIGKILL'));
    // Each refused by the ceiling a few times, after the orders' "hours" ended twice over (~2 s each).
    await until('both services refused by the shared ceiling', () => services.every((s) => refusals(s) >= 5), 40_000);
    for (const service of services) service.child.kill('SIGTERM');
    for (const result of await Promise.all(services.map((service) => service.result)))
      expect(result.code, result.stderr).toBe(0);
    const orders = world.sandbox.orders().filter((order) => order.address === address);
    expect(orders.map((order) => order.total_trx)).toEqual(['3.900000', '3.900000']);
    expect(cluster.current.sql("SELECT count(*), sum(total_trx) FROM energy.spend_event WHERE kind = 'order'")).toBe(
      '2|7.800000',
    );
  }, 60_000);
});
