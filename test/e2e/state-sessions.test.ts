/**
 * Sessions to the shared state that fail cleanly (issue 39 item 2): a session killed by the server
 * (`pg_terminate_backend`, what a restart, a fail-over or a managed database's idle timeout does) while a
 * decision runs, a statement that waits on a lock held elsewhere, the limits every session carries and the
 * name it gives. On a private cluster (test/helpers/pg-cluster.ts); orders counted at the sandbox.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { expectNoStackTrace, freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { ENERGY_SESSIONS, holdLock, whileJournalLocked } from '../helpers/pg-lock.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const bin = postgresBin();
const ENSURE = ['--energy', '65000', '--hours', '1', '--yes', '--json'];
describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'sessions to the shared state', () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
  const host = (extra: Record<string, string> = {}) => ({
    ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
    ENERGY_TRON_NODE: world.sandbox.url,
    ...cluster.current.env,
    ...extra,
  });
  const sessions = (where: string) =>
    cluster.current.sql(`SELECT count(*) FROM pg_stat_activity WHERE ${ENERGY_SESSIONS} AND ${where}`);

  it('every session killed while a decision waits on the API: no crash, no stack trace, one order in the end', async () => {
    const address = freshAddress(39_201);
    const env = host();
    expect((await world.run(['order', 'pending'], { env })).code).toBe(0); // the schema
    world.sandbox.inject({ kind: 'delay', ms: 3000, times: 1, match: { path: '/v1/energy/quotes' } });
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const running = world.spawn(['ensure', address, ...ENSURE], { env });
    await until('the decision asked for its quote', () => world.sandbox.requestCount('/v1/energy/quotes') > quotes);
    await until('energy holds a session', () => sessions('true') !== '0');
    cluster.current.sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${ENERGY_SESSIONS}`);
    const result = await running.result;
    expectNoStackTrace(result);
    expect(result.stderr).not.toContain('Unhandled');
    expect([0, 11]).toContain(result.code);
    expect(ordersTo(address).length).toBeLessThanOrEqual(1);
    const again = await world.run(['ensure', address, ...ENSURE], { env: host() });
    expect(again.code, again.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
  }, 60_000);

  it('a session killed in a statement (waiting on a lock): exit 11 saying the session was lost, nothing bought', async () => {
    const address = freshAddress(39_202);
    const env = host();
    expect((await world.run(['order', 'pending'], { env })).code).toBe(0);
    const lock = await holdLock(cluster.current, 'LOCK TABLE energy.journal IN ACCESS EXCLUSIVE MODE');
    let result;
    try {
      const running = world.spawn(['ensure', address, ...ENSURE], { env });
      await until('energy waits on the lock', () => sessions("wait_event_type = 'Lock'") !== '0', 15_000);
      cluster.current.sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${ENERGY_SESSIONS}`);
      result = await running.result;
    } finally {
      await lock.release();
    }
    expectNoStackTrace(result);
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toContain('the session was ended by the server');
    expect(ordersTo(address)).toHaveLength(0);
  }, 60_000);

  it('a lock held elsewhere past lock_timeout (set in the URL as libpq reads it): exit 11 naming the limit, nothing bought', async () => {
    const address = freshAddress(39_203);
    const url = `${cluster.current.url}&options=${encodeURIComponent('-c lock_timeout=1s')}`;
    const env = host({ ENERGY_STATE_URL: url });
    expect((await world.run(['order', 'pending'], { env })).code).toBe(0);
    const result = await whileJournalLocked(cluster.current, () => world.run(['ensure', address, ...ENSURE], { env }));
    expectNoStackTrace(result);
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toContain('lock_timeout (1s)');
    expect(ordersTo(address)).toHaveLength(0);
  }, 60_000);

  it('a statement past statement_timeout (PGOPTIONS): exit 11 naming the limit', async () => {
    const env = host({ PGOPTIONS: '-c statement_timeout=1s -c lock_timeout=0' });
    expect((await world.run(['order', 'pending'], { env })).code).toBe(0);
    const result = await whileJournalLocked(cluster.current, () => world.run(['order', 'pending'], { env }));
    expectNoStackTrace(result);
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toContain('statement_timeout (1s)');
  }, 60_000);

  it('each session names energy, its version, host and process, and carries the limits; at most 2 a run', async () => {
    const version = (
      JSON.parse((await import('node:fs')).readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
    const env = host();
    world.sandbox.inject({ kind: 'delay', ms: 2500, times: 1, match: { path: '/v1/energy/quotes' } });
    const running = world.spawn(['ensure', freshAddress(39_204), ...ENSURE], { env });
    await until('energy holds a session', () => sessions('true') !== '0');
    const rows = cluster.current
      .sql(`SELECT application_name FROM pg_stat_activity WHERE ${ENERGY_SESSIONS}`)
      .split('\n');
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(rows[0]).toBe(`energy/${version} ${hostname()} ${running.child.pid}`);
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(json<{ items: { reason: string }[] }>(result).items[0]!.reason).toBe('bought');
  }, 60_000);

  it("libpq's rules for the URL: sslmode=require on a unix socket connects; sslmode=bogus and connect_timeout=1e9 are exit 2", async () => {
    const socketRequire = await world.run(['order', 'pending'], {
      env: host({ ENERGY_STATE_URL: `${cluster.current.url}&sslmode=require` }),
    });
    expect(socketRequire.code, socketRequire.stderr).toBe(0);
    for (const [param, said] of [
      ['sslmode=bogus', 'sslmode "bogus" in the URL is not one of'],
      ['connect_timeout=1e9', 'connect_timeout "1e9" in the URL is not an integer'],
    ] as const) {
      const refused = await world.run(['order', 'pending'], {
        env: host({ ENERGY_STATE_URL: `${cluster.current.url}&${param}` }),
      });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(said);
      expectNoStackTrace(refused);
    }
  }, 60_000);

  it('no password anywhere: exit 11 saying so, with the password file ignored for its mode 0640', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-pgpass-'));
    const passfile = join(dir, 'pgpass');
    writeFileSync(passfile, `*:*:*:postgres:${cluster.current.password}\n`);
    chmodSync(passfile, 0o640);
    const result = await world.run(['order', 'pending'], {
      env: host({ PGPASSWORD: '', PGPASSFILE: passfile }),
    });
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toContain('asks for a password for user postgres and none was given');
    expect(result.stderr).toContain(
      `the password file ${passfile} ignored: its group or others have access (mode 0640`,
    );
    expect(result.stderr).not.toContain('SASL');
    expect(result.stderr).not.toContain(cluster.current.password);
    chmodSync(passfile, 0o600);
    const allowed = await world.run(['order', 'pending'], { env: host({ PGPASSWORD: '', PGPASSFILE: passfile }) });
    expect(allowed.code, allowed.stderr).toBe(0);
  }, 60_000);

  it('ensure --every: a session killed in a statement is a failed cycle (exit 11 in its report); the next cycle buys, once', async () => {
    const address = freshAddress(39_205);
    const env = host();
    expect((await world.run(['order', 'pending'], { env })).code).toBe(0);
    const lock = await holdLock(cluster.current, 'LOCK TABLE energy.journal IN ACCESS EXCLUSIVE MODE');
    const running = world.spawn(['ensure', address, ...ENSURE, '--every', '300ms'], { env });
    try {
      await until('the service waits on the lock', () => sessions("wait_event_type = 'Lock'") !== '0', 15_000);
      cluster.current.sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${ENERGY_SESSIONS}`);
    } finally {
      await lock.release();
    }
    await until('the service bought', () => ordersTo(address).length === 1, 15_000);
    await until('a cycle after the purchase', () => running.output().stdout.split('\n').length > 4, 15_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expectNoStackTrace(result);
    expect(result.code, result.stderr).toBe(0);
    const cycles = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { error?: { exit_code: number; message: string } });
    expect(cycles[0]!.error).toMatchObject({ exit_code: 11, message: expect.stringContaining('ended by the server') });
    expect(cycles.slice(1).every((cycle) => cycle.error === undefined)).toBe(true);
    expect(ordersTo(address)).toHaveLength(1);
  }, 60_000);
});
