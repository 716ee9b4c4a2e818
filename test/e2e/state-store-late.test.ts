/**
 * A service started before its database answers (a first `docker compose up`: PostgreSQL still in initdb): a
 * private cluster (test/helpers/pg-cluster.ts) stopped before the service starts and started later. The
 * service keeps cycling, each cycle failing with the reason (exit 11), and buys once the database answers;
 * one run still exits 11 at once. Counted at the sandbox and in the database.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'a state store that is not up yet', () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
  const env = () => ({
    ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-late-')),
    ENERGY_TRON_NODE: world.sandbox.url,
    ...cluster.current.env,
  });

  it('ensure --every keeps cycling, each cycle failing with the reason, and buys once the database answers', async () => {
    const address = freshAddress(46_301);
    cluster.current.stop();
    let started = false;
    onTestFinished(() => {
      if (!started) cluster.current.start();
    });
    const running = world.spawn(['ensure', ...rentalArgs(address, '--yes', '--json', '--every', '1s')], {
      env: env(),
    });
    onTestFinished(() => void running.child.kill('SIGKILL'));
    const failures = () =>
      running
        .output()
        .stderr.split('\n')
        .filter((line) => line.includes('failed (exit 11)')).length;
    // Two failed cycles: the service did not end at the first, and each cycle tried the database again.
    await until('two cycles failed on the database', () => failures() >= 2, 30_000);
    expect(running.child.exitCode).toBeNull();
    expect(running.output().stderr).toContain('the state store cannot be used yet');
    expect(running.output().stderr).toContain('the state store postgresql://postgres@/postgres');
    expect(ordersTo(address)).toHaveLength(0);
    cluster.current.start();
    started = true;
    await until('the service bought once the database answered', () => ordersTo(address).length === 1, 30_000);
    await until('a cycle reported', () => running.output().stdout.includes('"reason":"bought"'), 30_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
    // The database holds its journal: the store was opened by a cycle, not skipped.
    expect(cluster.current.sql(`SELECT count(*) FROM energy.journal WHERE body LIKE '%${address}%'`)).toBe('1');
  }, 90_000);

  it('one run with the database down still exits 11 at once, nothing ordered', async () => {
    const address = freshAddress(46_302);
    cluster.current.stop();
    try {
      const result = await world.run(['ensure', ...rentalArgs(address, '--yes')], { env: env() });
      expect(result.code, result.stderr).toBe(11);
      expect(result.stderr).not.toContain('each cycle tries it again');
      expect(ordersTo(address)).toHaveLength(0);
    } finally {
      cluster.current.start();
    }
  }, 60_000);
});
