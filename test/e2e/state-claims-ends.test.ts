/**
 * Claims and hosts with an end, on a real PostgreSQL (issue 44 items 5, 6 and 8): a claim that decided nothing
 * postpones nothing; a let-go the database could not take is taken once it answers; a claimed_at ahead of the
 * database's clock is honoured one lease at most; `state status` tells live services from ended and silent ones
 * and from one-shot runs, prunes what is over, and sums each ledger on the API server's clock. Orders are
 * counted at the sandbox, rows in the database.
 */
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CliResult, RunningCli } from '../helpers/cli.js';
import { freshAddress, httpGet, metricsUrl, until, serviceCycles as cyclesOf } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json, type World } from '../helpers/world.js';
import { keyIdOf } from '../../src/journal/record.js';

const bin = postgresBin();

interface Item {
  address: string;
  reason: string;
}
interface Status {
  hosts: { host: string; pid: number; state: string; every_ms: number; ended_at: string | null }[];
  runs: { total: number; not_ended: number; by_host: { host: string; runs: number; not_ended: number }[] };
  leases: { held: number };
  pending: { records: number };
  clock: { source: string };
  ledgers: { ledger: string; entries: number; spent_trx: string }[];
}
const reasonsOf = (result: CliResult) =>
  Object.fromEntries(json<{ items: Item[] }>(result).items.map((item) => [item.address, item.reason]));

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'claims and hosts with an end', () => {
  const world = worldForSuite({ rateLimit: false, deliverAfterMs: 60_000 });
  const cluster = clusterForSuite(bin);
  const sql = (query: string) => cluster.current.sql(query);
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

  /** A host: its own state folder, the shared database. */
  function host(on: World = world) {
    const env = {
      ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
      ENERGY_TRON_NODE: on.sandbox.url,
      ...cluster.current.env,
    };
    return {
      run: (args: string[], extra: Record<string, string | undefined> = {}) =>
        on.run(args, { env: { ...env, ...extra } }),
      spawn: (args: string[]) => {
        const running = on.spawn(args, { env });
        onTestFinished(() => void running.child.kill('SIGKILL'));
        return running;
      },
    };
  }
  const status = async (extra: Record<string, string | undefined> = {}) => {
    const result = await host().run(['state', 'status', '--json'], extra);
    expect(result.code, result.stderr).toBe(0);
    return json<Status>(result);
  };

  it('a dry run, a run refused by --max-total and one refused consent postpone nothing: a service buys at its first cycle', async () => {
    const [x, y] = [freshAddress(44_501), freshAddress(44_502)];
    await status(); // the schema made
    // Y decided an hour ago: its row is there, due.
    sql(
      `INSERT INTO energy.claims (key_id, address, holder, token, claimed_at)
       VALUES ('${keyIdOf(world.sandbox.apiKey)}', '${y}', 'earlier', 't', now() - interval '1 hour')`,
    );
    const dry = await host().run(['ensure', ...rentalArgs([x, y], '--dry-run', '--json')]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(reasonsOf(dry)).toEqual({ [x]: 'would_buy', [y]: 'would_buy' });
    const capped = await host().run(['ensure', ...rentalArgs([x, y], '--yes', '--max-total', '0.000001', '--json')]);
    expect(capped.code).toBe(5);
    const unasked = await host().run(['ensure', ...rentalArgs([x, y], '--json')]);
    expect(unasked.code).not.toBe(0);
    expect(world.sandbox.orders().filter((order) => [x, y].includes(order.address))).toHaveLength(0);
    // As due as they were: X never decided (no row), Y still an hour old, neither leased.
    expect(sql(`SELECT count(*) FROM energy.claims WHERE address = '${x}'`)).toBe('0');
    expect(
      sql(`SELECT count(*) FROM energy.claims WHERE address = '${y}' AND claimed_at < now() - interval '59 minutes'
           AND lease_until IS NULL`),
    ).toBe('1');
    // A service of a one-minute interval: what a decision would postpone by 51 s is bought at once.
    const service = host().spawn(['ensure', ...rentalArgs([x, y], '--yes', '--json', '--every', '1m')]);
    await until('the service ended its first cycle', () => cyclesOf(service).length > 0, 30_000);
    expect(Object.fromEntries(cyclesOf(service)[0]!.items.map((item) => [item.address, item.reason]))).toEqual({
      [x]: 'bought',
      [y]: 'bought',
    });
    expect([ordersTo(x).length, ordersTo(y).length]).toEqual([1, 1]);
    // A decision is one: the next one-shot run of another host finds them in flight, as decided.
    service.child.kill('SIGTERM');
    expect((await service.result).code).toBe(0);
  }, 90_000);

  it('a claimed_at ahead of the database clock (it stepped back an hour) is honoured one lease at most', async () => {
    const x = freshAddress(44_511);
    await status(); // the schema made
    sql(
      `INSERT INTO energy.claims (key_id, address, holder, token, claimed_at, decided_at)
       VALUES ('${keyIdOf(world.sandbox.apiKey)}', '${x}', 'earlier', 't', now() + interval '1 hour', now())`,
    );
    const service = host().spawn(['ensure', ...rentalArgs(x, '--yes', '--json', '--every', '1s')]);
    await until('the service bought for X', () => ordersTo(x).length === 1, 30_000);
    // Bought by a cycle well within the hour the row claimed (one lease is 5 s here).
    expect(sql(`SELECT count(*) FROM energy.claims WHERE address = '${x}' AND claimed_at <= now()`)).toBe('1');
    service.child.kill('SIGTERM');
    expect((await service.result).code).toBe(0);
  }, 60_000);

  it('a let-go the restarting database did not take is taken once it answers, before the lease would end', async () => {
    const x = freshAddress(44_521);
    // The quote waits 4 s: the service holds X's claim (a 12 s lease for --every 4s) while the database goes.
    world.sandbox.inject({ kind: 'delay', ms: 4000, times: 1, match: { path: '/v1/energy/quotes' } });
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const service = host().spawn(['ensure', ...rentalArgs(x, '--yes', '--json', '--every', '4s')]);
    await until('the service asked for its quote', () => world.sandbox.requestCount('/v1/energy/quotes') > quotes);
    const [token, leaseEnd] = sql(`SELECT token || '|' || lease_until FROM energy.claims WHERE address = '${x}'`).split(
      '|',
    );
    expect(leaseEnd).toBeDefined();
    cluster.current.stop();
    try {
      // Its journal cannot take the order's record, nor the claims its let-go: the cycle ends failed.
      await until('the cycle ended', () => cyclesOf(service).length > 0, 30_000);
    } finally {
      cluster.current.start();
    }
    // Freed by the let-go tried again, not by the lease running out: the first change to the row is seen
    // before the database's clock reaches the lease's end.
    // (A row this claim made and did not decide is removed: none, or one without a lease, is let go.)
    const freed = await until(
      'the claim was let go',
      () =>
        sql(
          `SELECT CASE WHEN now() < '${leaseEnd}'::timestamptz THEN 'before its end' ELSE 'after its end' END
           FROM (SELECT coalesce(bool_and(lease_until IS NULL), true) AS free FROM energy.claims
                 WHERE address = '${x}' AND token = '${token}') t WHERE free`,
        ) || undefined,
      30_000,
    );
    expect(freed).toBe('before its end');
    await until('the next cycle bought for X', () => ordersTo(x).length === 1, 30_000);
    service.child.kill('SIGTERM');
    expect((await service.result).code).toBe(0);
  }, 90_000);

  it("a service exports an address's series while it decides it: once another host holds it, they are gone", async () => {
    const [x, y] = [freshAddress(44_571), freshAddress(44_572)];
    world.sandbox.seedTronAccount(x, { energy: 70_000 });
    world.sandbox.seedTronAccount(y, { energy: 70_000 });
    const service = host().spawn([
      'ensure',
      ...rentalArgs([x, y], '--json', '--every', '1s', '--metrics', '127.0.0.1:0'),
    ]);
    const url = await metricsUrl(service);
    const series = async () =>
      (await httpGet(`${url}/metrics`)).body
        .split('\n')
        .filter((line) => line.startsWith('energy_address_available_energy'));
    await until('both addresses exported', async () => (await series()).length === 2);
    // Another host takes Y (its lease a minute long, as its claim statement writes it).
    sql(
      `UPDATE energy.claims SET holder = 'host-b', token = 'token-b', claimed_at = now(),
         lease_until = now() + interval '1 minute' WHERE address = '${y}'`,
    );
    const cycles = cyclesOf(service).length;
    await until('a cycle ended since', () => cyclesOf(service).length > cycles + 1);
    expect(await series()).toEqual([`energy_address_available_energy{address="${x}"} 70000`]);
    // Y left to this host again: its series back.
    sql(`UPDATE energy.claims SET lease_until = NULL, claimed_at = now() - interval '1 minute' WHERE address = '${y}'`);
    await until('Y exported again', async () => (await series()).length === 2);
    service.child.kill('SIGTERM');
    expect((await service.result).code).toBe(0);
  }, 60_000);

  it('state status: live, silent and ended services apart, runs by host; a clean stop and a finished run say they ended', async () => {
    const [w, y, z, r] = [freshAddress(44_531), freshAddress(44_532), freshAddress(44_533), freshAddress(44_534)];
    const every = (address: string) => ['ensure', ...rentalArgs(address, '--yes', '--json', '--every', '1s')];
    const run = await host().run(['ensure', ...rentalArgs(r, '--yes', '--json')]);
    expect(run.code, run.stderr).toBe(0);
    const [live, stopped, killed] = [host().spawn(every(w)), host().spawn(every(y)), host().spawn(every(z))];
    await until('each service ended a cycle', () => [live, stopped, killed].every((s) => cyclesOf(s).length > 0));
    stopped.child.kill('SIGTERM');
    expect((await stopped.result).code).toBe(0);
    killed.child.kill('SIGKILL');
    await killed.result;
    const seen = await until(
      'the killed service is silent (two intervals without a claim)',
      async () => {
        const found = await status();
        return found.hosts.find((h) => h.pid === killed.child.pid)?.state === 'silent' ? found : undefined;
      },
      20_000,
    );
    const stateOf = (service: RunningCli) => seen.hosts.find((h) => h.pid === service.child.pid);
    expect(stateOf(live)).toMatchObject({ state: 'live', every_ms: 1000, ended_at: null });
    expect(stateOf(stopped)).toMatchObject({ state: 'ended', every_ms: 1000 });
    expect(stateOf(stopped)!.ended_at).not.toBeNull();
    expect(stateOf(killed)).toMatchObject({ state: 'silent', ended_at: null });
    // The one-shot runs are no hosts: counted by host, each said it ended.
    expect(seen.hosts.every((h) => h.every_ms > 0)).toBe(true);
    expect(seen.runs.by_host).toEqual([
      { host: hostname(), runs: seen.runs.total, not_ended: 0, last_at: expect.any(String) },
    ]);
    expect(seen.runs.total).toBeGreaterThanOrEqual(1);
    const text = await host().run(['state', 'status']);
    expect(text.stdout).toMatch(/Services\s+\d+ live, \d+ silent, \d+ ended/);
    expect(text.stdout).toMatch(new RegExp(`\\s${killed.child.pid}\\s+silent\\s`));
    live.child.kill('SIGTERM');
    expect((await live.result).code).toBe(0);
  }, 90_000);

  it('state status: a service whose cycle outlasts two intervals is live while it renews its leases, silent once it stops', async () => {
    const key = keyIdOf(world.sandbox.apiKey);
    await status(); // the schema, when this test runs alone
    // Last claims 3 minutes ago at --every 1m: one in touch 5 s ago (its lease renewals, its let-go), one not since.
    sql(
      `INSERT INTO energy.hosts (host, pid, key_id, every_ms, address_list, program, last_claim_at, last_seen_at,
         last_claimed, last_skipped, ended_at)
       VALUES ('slow-host', 9, '${key}', 60000, 'l', 'p', now() - interval '3 minutes', now() - interval '5 seconds', 0, 0, NULL),
              ('gone-host', 9, '${key}', 60000, 'l', 'p', now() - interval '3 minutes', now() - interval '3 minutes', 0, 0, NULL)`,
    );
    const found = await status();
    const stateOf = (name: string) => found.hosts.find((h) => h.host === name && h.pid === 9)?.state;
    expect([stateOf('slow-host'), stateOf('gone-host')]).toEqual(['live', 'silent']);
    sql(`DELETE FROM energy.hosts WHERE pid = 9`);
  });

  it('rows with an end: old hosts, ended services and runs, and the claims of addresses no one lists are pruned', async () => {
    const key = keyIdOf(world.sandbox.apiKey);
    const row = (name: string, every: number, ago: string, ended: string | null) =>
      `('${name}', 7, '${key}', ${every}, 'l', 'p', now() - interval '${ago}', 0, 0, ${ended === null ? 'NULL' : `now() - interval '${ended}'`})`;
    sql(
      `INSERT INTO energy.hosts (host, pid, key_id, every_ms, address_list, program, last_claim_at, last_claimed,
         last_skipped, ended_at)
       VALUES ${[
         row('gone-silent', 60_000, '8 days', null),
         row('gone-ended', 60_000, '2 days', '2 days'),
         row('gone-run', 0, '2 days', null),
         row('kept-silent', 60_000, '6 days', null),
         row('kept-ended', 60_000, '2 hours', '1 hour'),
         row('kept-run', 0, '1 hour', '1 hour'),
       ].join(', ')}`,
    );
    const [a, b, c] = [freshAddress(44_541), freshAddress(44_542), freshAddress(44_543)];
    sql(
      `INSERT INTO energy.claims (key_id, address, holder, token, claimed_at, lease_until) VALUES
         ('${key}', '${a}', 'old', 't', now() - interval '9 days', NULL),
         ('${key}', '${b}', 'old', 't', now() - interval '9 days', now() + interval '1 minute'),
         ('${key}', '${c}', 'old', 't', now() - interval '7 days', NULL)`,
    );
    const result = await host().run(['ensure', ...rentalArgs(freshAddress(44_544), '--yes', '--json')]);
    expect(result.code, result.stderr).toBe(0);
    expect(sql(`SELECT string_agg(host, ',' ORDER BY host) FROM energy.hosts WHERE pid = 7`)).toBe(
      'kept-ended,kept-run,kept-silent',
    );
    expect(
      sql(`SELECT string_agg(holder || ':' || address, ',' ORDER BY address) FROM energy.claims
                WHERE address IN ('${a}', '${b}', '${c}')`),
    ).toBe([`old:${b}`, `old:${c}`].sort().join(','));
  }, 60_000);

  it('state status counts held leases and pending records only: an expired lease and a settled record are not', async () => {
    const key = keyIdOf(world.sandbox.apiKey);
    const before = await status();
    sql(
      `INSERT INTO energy.claims (key_id, address, holder, token, claimed_at, lease_until) VALUES
         ('${key}', '${freshAddress(44_551)}', 'h', 't', now(), now() - interval '1 second'),
         ('${key}', '${freshAddress(44_552)}', 'h', 't', now(), now() + interval '1 minute');
       INSERT INTO energy.journal (origin, key_id, client_request_id, body, journaled_at, outcome, host) VALUES
         ('o', 'k', 'settled-44', '{}', now(), '{"kind":"created"}', 'h'),
         ('o', 'k', 'pending-44', '{}', now(), NULL, 'h')`,
    );
    const after = await status();
    expect(after.leases.held - before.leases.held).toBe(1);
    expect(after.pending.records - before.pending.records).toBe(1);
  }, 30_000);

  describe('a ledger summed on the API server clock', () => {
    // Its own sandbox: its clock is moved on 90 minutes.
    const moved = worldForSuite({ rateLimit: false, deliverAfterMs: 100 });

    it("each ledger's window ends at the server's now (its GET /v1/time); with no API configured, the database's", async () => {
      const x = freshAddress(44_561);
      const bought = await host(moved).run(['ensure', ...rentalArgs(x, '--yes', '--json', '--max-spend', '100/1h')]);
      expect(bought.code, bought.stderr).toBe(0);
      const ledger = `account ${keyIdOf(moved.sandbox.apiKey)}`;
      const entriesOf = (found: Status) => found.ledgers.find((l) => l.ledger === ledger)?.entries;
      const stamp = async (extra: Record<string, string | undefined> = {}) => {
        const result = await host(moved).run(['state', 'status', '--json'], extra);
        expect(result.code, result.stderr).toBe(0);
        return json<Status>(result);
      };
      expect(entriesOf(await stamp())).toBe(1);
      // An hour and a half on, on the server's clock: the order has left the 1 h window.
      const times = moved.sandbox.requestCount('/v1/time');
      moved.sandbox.advance(90 * 60_000);
      const later = await stamp();
      expect(later.clock.source).toBe('server');
      expect(entriesOf(later)).toBe(0);
      // Read twice: the first reading is 90 minutes from what this host's last offset foretold, so it is read
      // again before it is taken (two that agree win: the client's one clock).
      expect(moved.sandbox.requestCount('/v1/time') - times).toBe(2);
      // No API configured: the database's clock (this machine's here, so the order is still in its window).
      const fallback = await stamp({
        ENERGY_BASE_URL: undefined,
        ENERGY_API_KEY: undefined,
        ENERGY_API_SECRET: undefined,
      });
      expect(fallback.clock.source).toBe('database');
      expect(entriesOf(fallback)).toBe(1);
    }, 60_000);
  });
});
