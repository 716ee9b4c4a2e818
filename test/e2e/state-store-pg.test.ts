/**
 * The shared state store on a real PostgreSQL (a private cluster per file, test/helpers/pg-cluster.ts): hosts
 * are processes with separate state folders naming one database, as containers or machines of a fleet would.
 * Counted at the sandbox: orders per address.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { pendingIdsOf } from '../helpers/pending.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';
import { SCHEMA_VERSION } from '../../src/state/pg/pg-schema.js';

const ORDERS = '/v1/energy/orders';
/** The schema's migration lock (src/state/pg/pg-schema.ts), its two-integer key: "enrg", 0. */
const MIGRATION_LOCK = 0x656e7267;
const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'the state shared in PostgreSQL', () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

  /** A host: its own state folder (a container without its volume gets a new one), the shared database. */
  function host(extra: Record<string, string> = {}) {
    const env = () => ({
      ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
      ENERGY_TRON_NODE: world.sandbox.url,
      ...cluster.current.env,
      ...extra,
    });
    const mine = env();
    return {
      run: (args: string[]) => world.run(args, { env: mine }),
      spawn: (args: string[]) => world.spawn(args, { env: mine }),
    };
  }

  /** `order create --yes` on `on`, SIGKILLed once the server committed its order and before the answer. */
  async function killedAfterCommit(on: ReturnType<typeof host>, address: string): Promise<void> {
    world.sandbox.inject({ kind: 'hold-after-commit', match: { method: 'POST', path: ORDERS } });
    try {
      const running = on.spawn(orderCreateArgs(address, '--yes'));
      await until('the order is committed', () => ordersTo(address).length === 1, 15_000);
      running.child.kill('SIGKILL');
      const result = await running.result;
      expect(result.code).not.toBe(0);
    } finally {
      world.sandbox.clearFaults();
    }
  }

  it('a container restarted without its state folder runs the same order create again: 1 order', async () => {
    const address = freshAddress(33_001);
    await killedAfterCommit(host(), address);
    const restarted = host();
    const again = await restarted.run(orderCreateArgs(address, '--yes', '--json'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('an earlier run sent this same order');
    expect(ordersTo(address)).toHaveLength(1);
    expect(json<{ id: string }>(again).id).toBe(ordersTo(address)[0]!.id);
    expect(pendingIdsOf(await restarted.run(['order', 'pending', '--json']))).toEqual([]);
  }, 60_000);

  it("host B lists host A's pending record and settles it once; host C then finds nothing: 1 order", async () => {
    const address = freshAddress(33_002);
    await killedAfterCommit(host(), address);
    const [b, c] = [host(), host()];
    const pending = pendingIdsOf(await b.run(['order', 'pending', '--json']));
    expect(pending).toHaveLength(1);
    const list = await b.run(['order', 'list']);
    expect(list.stderr).toContain('1 order request sent from the hosts sharing the state store never got an answer');
    const recovered = await b.run(['order', 'recover', '--yes', '--json']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(json<{ items: { client_request_id: string; outcome: string }[] }>(recovered).items).toEqual([
      expect.objectContaining({ client_request_id: pending[0], outcome: 'existing' }),
    ]);
    expect(pendingIdsOf(await c.run(['order', 'pending', '--json']))).toEqual([]);
    const nothing = await c.run(['order', 'recover', '--yes']);
    expect(nothing.code, nothing.stderr).toBe(0);
    expect(nothing.stderr).toContain('nothing to recover');
    expect(ordersTo(address)).toHaveLength(1);
    expect(
      cluster.current.sql(`SELECT outcome->>'kind' FROM energy.journal WHERE client_request_id = '${pending[0]}'`),
    ).toBe('existing');
  }, 60_000);

  it('three hosts recovering the same record at once: one order, settled once', async () => {
    const address = freshAddress(33_003);
    await killedAfterCommit(host(), address);
    const results = await Promise.all([host(), host(), host()].map((h) => h.run(['order', 'recover', '--yes'])));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
    expect(pendingIdsOf(await host().run(['order', 'pending', '--json']))).toEqual([]);
  }, 60_000);

  it('a second ensure run while the first decides the same address skips it (claimed_elsewhere, not read); the first buys: 1 order of theirs', async () => {
    const address = freshAddress(33_004);
    const [a, b] = [host(), host()];
    // Host A reads the list, then waits 3 s for its quote; meanwhile another integration orders 32,000 for
    // the address (the list's newest order, an anchor host A did not see), and host B starts.
    world.sandbox.inject({ kind: 'delay', ms: 3000, times: 1, match: { path: '/v1/energy/quotes' } });
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const runningA = a.spawn(['ensure', address, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    await until('host A asked for its quote', () => world.sandbox.requestCount('/v1/energy/quotes') > quotes, 15_000);
    const other = await world.run(['order', 'create', address, '--energy', '32000', '--hours', '1', '--yes'], {
      env: { ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-other-')) },
    });
    expect(other.code, other.stderr).toBe(0);
    const reads = world.sandbox.requestCount('/wallet/getaccountresource');
    const resultB = await b.run(['ensure', address, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(world.sandbox.requestCount('/wallet/getaccountresource')).toBe(reads);
    const resultA = await runningA.result;
    expect(resultA.code, resultA.stderr).toBe(0);
    expect(resultB.code, resultB.stderr).toBe(0);
    const reasons = [resultA, resultB].map((result) => json<{ items: { reason: string }[] }>(result).items[0]!.reason);
    expect(reasons).toEqual(['bought', 'claimed_elsewhere']);
    expect(
      ordersTo(address)
        .map((order) => order.energy)
        .sort(),
    ).toEqual([32_000, 65_000]);
  }, 60_000);

  it("ensure on host B counts host A's pending order request in flight (no order the list could show): nothing bought", async () => {
    const address = freshAddress(33_009);
    const b = host();
    expect((await b.run(['order', 'pending'])).code).toBe(0); // the schema, when this test runs alone
    // Host A journaled an order request and was never heard of again: its row, as A's journal wrote it.
    const keyId = `sha256:${createHash('sha256').update(world.sandbox.apiKey).digest('hex').slice(0, 16)}`;
    const body = JSON.stringify({
      client_request_id: 'host-a-0001',
      address,
      energy: 65000,
      duration_hours: 1,
      expected_total_trx: '3.700000',
    });
    cluster.current.sql(
      `INSERT INTO energy.journal (origin, key_id, client_request_id, body, journaled_at, host, address)
       VALUES ('${world.sandbox.url}', '${keyId}', 'host-a-0001', '${body}', now(), 'host-a', '${address}')`,
    );
    const result = await b.run(['ensure', address, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(json<{ items: { reason: string; in_flight: number }[] }>(result).items[0]).toMatchObject({
      reason: 'in_flight',
      in_flight: 65_000,
    });
    expect(ordersTo(address)).toHaveLength(0);
  }, 60_000);

  it('the database down: order create exits 11 before any order, balance and order list work', async () => {
    const address = freshAddress(33_005);
    const on = host();
    cluster.current.stop();
    try {
      const refused = await on.run(orderCreateArgs(address, '--yes', '--json'));
      expect(refused.code, refused.stderr).toBe(11);
      const error = JSON.parse(refused.stderr.trim().split('\n').at(-1)!) as {
        error: { message: string; hint: string };
      };
      expect(error.error.message).toContain('the state store postgresql://postgres@/postgres');
      expect(error.error.hint).toContain('doctor` checks it');
      expect(ordersTo(address)).toHaveLength(0);
      const balance = await on.run(['balance', '--json']);
      expect(balance.code, balance.stderr).toBe(0);
      const list = await on.run(['order', 'list', '--json']);
      expect(list.code, list.stderr).toBe(0);
      const ensure = await on.run(['ensure', address, '--energy', '65000', '--hours', '1', '--yes']);
      expect(ensure.code, ensure.stderr).toBe(11);
      expect(ordersTo(address)).toHaveLength(0);
    } finally {
      cluster.current.start();
    }
  }, 60_000);

  it('the database stopped while an order is on its way: exit 7 naming order recover; recovered later, 1 order', async () => {
    const address = freshAddress(33_006);
    const on = host();
    world.sandbox.inject({ kind: 'hold-after-commit', ms: 2000, match: { method: 'POST', path: ORDERS } });
    let result: CliResult;
    try {
      const running = on.spawn(orderCreateArgs(address, '--yes'));
      await until('the order is committed', () => ordersTo(address).length === 1, 15_000);
      cluster.current.stop();
      result = await running.result;
    } finally {
      world.sandbox.clearFaults();
      cluster.current.start();
    }
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain(`was placed`);
    expect(result.stderr).toContain('order recover');
    const recovered = await host().run(['order', 'recover', '--yes']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
  }, 60_000);

  it('a fresh database set up by three hosts at once: each waits for the migration lock, one schema, every version once', async () => {
    cluster.current.sql('CREATE DATABASE fresh_three');
    const url = cluster.current.url.replace('/postgres?', '/fresh_three?');
    // The migration lock held from outside: the three hosts must queue on it (seen in pg_locks), not race.
    const holder = new pg.Client({
      host: cluster.current.socketDir,
      user: 'postgres',
      database: 'fresh_three',
      password: cluster.current.password,
    });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1, 0)', [MIGRATION_LOCK]);
      const running = [1, 2, 3].map(() => host({ ENERGY_STATE_URL: url }).spawn(['order', 'pending', '--json']));
      const waiting = () =>
        cluster.current.sql(
          `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = ${MIGRATION_LOCK} AND objid = 0`,
          'fresh_three',
        );
      await until('three hosts wait for the migration lock', () => waiting() === '3', 15_000);
      await holder.query('COMMIT');
      for (const result of await Promise.all(running.map((run) => run.result)))
        expect(result.code, result.stderr).toBe(0);
    } finally {
      await holder.end();
    }
    expect(cluster.current.sql('SELECT version FROM energy.schema_version', 'fresh_three').split('\n')).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, index) => String(index + 1)),
    );
  }, 60_000);

  it('the password: from PGPASSFILE too; never printed, in the URL or not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-pgpass-'));
    const passfile = join(dir, 'pgpass');
    writeFileSync(passfile, `*:*:*:postgres:${cluster.current.password}\n`);
    chmodSync(passfile, 0o600);
    const fromFile = await world.run(['order', 'pending', '--json'], {
      env: { ...cluster.current.env, PGPASSWORD: '', PGPASSFILE: passfile, ENERGY_STATE_DIR: dir },
    });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const wrong = 'not-the-password-9f3k';
    const inUrl = cluster.current.url.replace('postgres@', `postgres:${wrong}@`);
    const refused = await world.run(['order', 'pending'], {
      env: { ENERGY_STATE_URL: inUrl, PGPASSWORD: '', ENERGY_STATE_DIR: dir },
    });
    expect(refused.code).toBe(11);
    expect(refused.stderr).toContain('the password was refused');
    expect(refused.stderr).toContain('postgres:***@');
    expect(refused.stderr + refused.stdout).not.toContain(wrong);
    const onArgv = await world.run(['--state-url', inUrl, 'order', 'pending'], { env: { ENERGY_STATE_DIR: dir } });
    expect(onArgv.code).toBe(2);
    expect(onArgv.stderr + onArgv.stdout).not.toContain(wrong);
    // In a profile: refused as an argument, taken from stdin, listed redacted.
    const config = { ENERGY_CONFIG_DIR: join(dir, 'config'), ENERGY_STATE_DIR: dir };
    const setOnArgv = await world.run(['config', 'set', 'state-url', inUrl], { env: config });
    expect(setOnArgv.code).toBe(2);
    expect(setOnArgv.stderr + setOnArgv.stdout).not.toContain(wrong);
    const setFromStdin = await world.run(['config', 'set', 'state-url', '--json'], { env: config, input: inUrl });
    expect(setFromStdin.code, setFromStdin.stderr).toBe(0);
    const listed = await world.run(['config', 'list', '--json'], { env: config });
    const setting = json<{ settings: { name: string; value: string | null; source: string }[] }>(listed).settings.find(
      (row) => row.name === 'state-url',
    );
    expect(setting).toEqual({ name: 'state-url', value: inUrl.replace(wrong, '***'), source: 'profile' });
    expect(setFromStdin.stdout + listed.stdout + listed.stderr).not.toContain(wrong);
  }, 60_000);

  it('energy state import moves a local journal into the database, once; host B then settles its pending record', async () => {
    const [settledAddress, pendingAddress] = [freshAddress(33_007), freshAddress(33_008)];
    const folder = mkdtempSync(join(tmpdir(), 'energy-local-'));
    const local = { ENERGY_STATE_DIR: folder, ENERGY_STATE_URL: '' };
    const placed = await world.run(orderCreateArgs(settledAddress, '--yes'), { env: local });
    expect(placed.code, placed.stderr).toBe(0);
    world.sandbox.inject({ kind: 'hold-after-commit', match: { method: 'POST', path: ORDERS } });
    try {
      const running = world.spawn(orderCreateArgs(pendingAddress, '--yes'), { env: local });
      await until('the order is committed', () => ordersTo(pendingAddress).length === 1, 15_000);
      running.child.kill('SIGKILL');
      await running.result;
    } finally {
      world.sandbox.clearFaults();
    }
    const importing = { ...cluster.current.env, ENERGY_STATE_DIR: folder };
    const first = await world.run(['state', 'import', '--json'], { env: importing });
    expect(first.code, first.stderr).toBe(0);
    expect(json(first)).toMatchObject({ added: 2, settled: 0, present: 0, unreadable: 0 });
    const again = await world.run(['state', 'import', '--json'], { env: importing });
    expect(json(again)).toMatchObject({ added: 0, settled: 0, present: 2 });
    const b = host();
    const pending = json<{ items: { address: string }[] }>(await b.run(['order', 'pending', '--json'])).items;
    expect(pending.map((item) => item.address)).toContain(pendingAddress);
    const recovered = await b.run(['order', 'recover', '--yes']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(ordersTo(pendingAddress)).toHaveLength(1);
    expect(ordersTo(settledAddress)).toHaveLength(1);
  }, 60_000);

  it('doctor reports the state store (reachable, schema version, latency) without its password; down, exit 11', async () => {
    const withPassword = cluster.current.url.replace('postgres@', `postgres:${cluster.current.password}@`);
    const env = { ENERGY_STATE_URL: withPassword, PGPASSWORD: '', ENERGY_TRON_NODE: world.sandbox.url };
    const doctor = await world.run(['doctor', '--json'], { env });
    const checks = json<{ checks: { name: string; status: string; detail: string }[] }>(doctor).checks;
    const state = checks.find((check) => check.name === 'state')!;
    expect(state.status).toBe('ok');
    expect(state.detail).toMatch(
      new RegExp(
        `^postgresql://postgres:\\*\\*\\*@/postgres\\?host=.*: reachable, writable, schema version ${SCHEMA_VERSION}, \\d+\\.\\d ms a round trip$`,
      ),
    );
    expect(doctor.stdout + doctor.stderr).not.toContain(cluster.current.password);
    cluster.current.stop();
    try {
      const down = await world.run(['doctor', '--json'], { env });
      expect(down.code, down.stderr).toBe(11);
      const failed = json<{ checks: { name: string; status: string }[] }>(down).checks;
      expect(failed.find((check) => check.name === 'state')!.status).toBe('fail');
      expect(down.stdout + down.stderr).not.toContain(cluster.current.password);
    } finally {
      cluster.current.start();
    }
  }, 60_000);
});
