/**
 * Moving in and upgrading (issue 39 item 4): a host that names the shared state while its folder still holds
 * a pending order request orders nothing until `energy state import`, and doctor says why; `--from` a folder
 * that is not there is exit 2; a schema written by a newer energy is refused before anything is read or sent;
 * doctor tries a write, so that a read-only role fails it. Orders counted at the sandbox.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { expectNoStackTrace, freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { pendingIdsOf } from '../helpers/pending.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const bin = postgresBin();
const ORDERS = '/v1/energy/orders';
const ENSURE = ['--energy', '65000', '--hours', '1', '--yes', '--json'];

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'moving in and upgrading', () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
  const doctorCheck = (result: CliResult, name: string) =>
    json<{ checks: { name: string; status: string; detail: string; hint: string | null }[] }>(result).checks.find(
      (check) => check.name === name,
    )!;

  it('a folder with a pending request: nothing is ordered with the URL until state import; then recover settles it once', async () => {
    const address = freshAddress(39_401);
    const other = freshAddress(39_402);
    const folder = mkdtempSync(join(tmpdir(), 'energy-moving-'));
    // Before the move: an order whose answer this host never got, pending in its folder.
    world.sandbox.inject({ kind: 'hold-after-commit', match: { method: 'POST', path: ORDERS } });
    try {
      const running = world.spawn(orderCreateArgs(address, '--yes'), { env: { ENERGY_STATE_DIR: folder } });
      await until('the order is committed', () => ordersTo(address).length === 1, 15_000);
      running.child.kill('SIGKILL');
      await running.result;
    } finally {
      world.sandbox.clearFaults();
    }
    const [pendingId] = pendingIdsOf(
      await world.run(['order', 'pending', '--json'], { env: { ENERGY_STATE_DIR: folder } }),
    );
    const moved = { ...cluster.current.env, ENERGY_STATE_DIR: folder, ENERGY_TRON_NODE: world.sandbox.url };
    const refusals = [
      // Twice the energy of the order left pending: short whether or not the sandbox has delivered that order
      // by now (300 ms after its commit). At 65,000, a delivered order made the address "enough": no decision,
      // nothing refused, exit 0: the test failed whenever the runs before it took more than 300 ms (under load).
      await world.run(['ensure', address, '--energy', '130000', '--hours', '1', '--yes', '--json'], { env: moved }),
      await world.run(['ensure', other, ...ENSURE], { env: moved }),
      await world.run(orderCreateArgs(other, '--yes'), { env: moved }),
    ];
    for (const refused of refusals) {
      expectNoStackTrace(refused);
      expect(refused.code, refused.stderr).toBe(5);
      expect(refused.stderr).toContain(`1 order request pending in this host's state folder`);
      expect(refused.stderr).toContain(`${pendingId} (${address}, 65000 energy`);
      expect(refused.stderr).toMatch(/run `energy (--json )?state import` on this host/);
    }
    expect(ordersTo(address)).toHaveLength(1);
    expect(ordersTo(other)).toHaveLength(0);
    const doctor = await world.run(['doctor', '--json'], { env: moved });
    expect(doctor.code).toBe(5);
    expect(doctorCheck(doctor, 'journal')).toMatchObject({
      status: 'fail',
      hint: expect.stringContaining('state import'),
    });
    expect(doctorCheck(doctor, 'journal').detail).toContain(pendingId);

    const imported = await world.run(['state', 'import', '--json'], { env: moved });
    expect(imported.code, imported.stderr).toBe(0);
    expect(json(imported)).toMatchObject({ added: 1 });
    const recovered = await world.run(['order', 'recover', '--yes'], { env: moved });
    expect(recovered.code, recovered.stderr).toBe(0);
    const ensured = await world.run(['ensure', address, other, ...ENSURE], { env: moved });
    expect(ensured.code, ensured.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
    expect(ordersTo(other)).toHaveLength(1);
    expect(doctorCheck(await world.run(['doctor', '--json'], { env: moved }), 'journal').status).toBe('ok');
  }, 90_000);

  it('state import --from a folder that is not there, or holds no journal: exit 2, nothing imported', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'energy-empty-'));
    for (const from of [join(empty, 'missing'), empty]) {
      const result = await world.run(['state', 'import', '--from', from], { env: cluster.current.env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('nothing was imported');
    }
  }, 60_000);

  it('a schema written by a newer energy: exit 11 "written by a newer energy", nothing read or sent', async () => {
    cluster.current.sql('CREATE DATABASE newer');
    const env = {
      ...cluster.current.env,
      ENERGY_STATE_URL: cluster.current.url.replace('/postgres?', '/newer?'),
      ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-newer-')),
    };
    expect((await world.run(['order', 'pending'], { env })).code).toBe(0);
    cluster.current.sql(
      "INSERT INTO energy.schema_version (version, applied_by) VALUES (999, 'a newer energy')",
      'newer',
    );
    const address = freshAddress(39_403);
    for (const args of [['order', 'pending'], orderCreateArgs(address, '--yes')]) {
      const result = await world.run(args, { env });
      expect(result.code, result.stderr).toBe(11);
      expect(result.stderr).toContain('schema is at version 999, written by a newer energy');
      expectNoStackTrace(result);
    }
    expect(ordersTo(address)).toHaveLength(0);
  }, 60_000);

  it('doctor tries a write: a role that may only read fails the state check (exit 11), leaving no row', async () => {
    expect((await world.run(['order', 'pending'], { env: cluster.current.env })).code).toBe(0);
    cluster.current.sql(
      "CREATE ROLE reader LOGIN PASSWORD 'reader-pw'; GRANT USAGE ON SCHEMA energy TO reader; GRANT SELECT ON ALL TABLES IN SCHEMA energy TO reader",
    );
    const rows = () =>
      cluster.current.sql(
        'SELECT (SELECT count(*) FROM energy.journal) + (SELECT count(*) FROM energy.spend_ledger) + (SELECT count(*) FROM energy.spend_event)',
      );
    const before = rows();
    const reader = {
      ENERGY_STATE_URL: cluster.current.url.replace('postgres@', 'reader@'),
      PGPASSWORD: 'reader-pw',
      ENERGY_TRON_NODE: world.sandbox.url,
    };
    const doctor = await world.run(['doctor', '--json'], { env: reader });
    expect(doctor.code, doctor.stderr).toBe(11);
    const state = doctorCheck(doctor, 'state');
    expect(state.status).toBe('fail');
    expect(state.detail).toContain('this user may not create or use the energy schema');
    const writer = await world.run(['doctor', '--json'], {
      env: { ...cluster.current.env, ENERGY_TRON_NODE: world.sandbox.url },
    });
    expect(doctorCheck(writer, 'state').detail).toContain(': reachable, writable, schema version');
    expect(rows()).toBe(before);
  }, 60_000);
});
