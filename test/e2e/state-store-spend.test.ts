/**
 * `ensure --max-spend` shared through PostgreSQL: two services on two hosts (separate state folders, one
 * database) keep one ceiling between them, not one each; hosts ordering at once have every order in the
 * ledger; one key under two spellings of the URL is one account; `state import` moves a folder ledger in;
 * and the ledger's own rules against the database (changes from many connections, the window, a refund
 * learnt again, pruning). Counted at the sandbox, and in the database by SQL.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { freshAddress, httpGet, until } from '../helpers/e2e.js';
import type { SpendLedger } from '../../src/journal/spend-ledger.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { SCHEMA_TWO_SQL } from '../helpers/pg-schema-two.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { readStateUrl } from '../../src/config/state-url.js';

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

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'the --max-spend ledger in PostgreSQL', () => {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });
  const cluster = clusterForSuite(bin);
  const HOUR = 3_600_000;
  const T = Date.UTC(2026, 10, 27, 12);

  /** A host: its own state folder, the shared database; rentals of 3.900000 TRX. */
  function host(extra: Record<string, string> = {}) {
    world.sandbox.setRates({ 1: '0.000060' });
    const env = {
      ...cluster.current.env,
      ENERGY_TRON_NODE: world.sandbox.url,
      ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
      ...extra,
    };
    return { run: (args: string[]) => world.run(args, { env }), env };
  }
  const activated = (n: number) => {
    const address = freshAddress(n);
    world.sandbox.seedTronAccount(address, { activated: true });
    return address;
  };
  const ledgerOrders = (ids: readonly string[]) =>
    cluster.current
      .sql("SELECT DISTINCT order_id FROM energy.spend_event WHERE kind = 'order' ORDER BY order_id")
      .split('\n')
      .filter((id) => ids.includes(id));

  async function ledger(name: string): Promise<{ ledger: SpendLedger; close: () => Promise<void> }> {
    const { PgStore } = await import('../../src/state/pg/pg-store.js');
    const store = await PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    return { ledger: await store.spendLedger(name), close: () => store.close() };
  }
  it('two hosts at once on 150 addresses each under 2000/1h: 300 orders at the server, the same 300 in the ledger', async () => {
    world.sandbox.setBalance('5000.000000');
    const sets = [0, 1].map((set) => Array.from({ length: 150 }, (_, n) => activated(38_500 + set * 200 + n)));
    const results = await Promise.all(
      sets.map((addresses) => host().run(['ensure', ...rentalArgs(addresses, '--yes', '--max-spend', '2000/1h')])),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const placed = world.sandbox.orders().filter((order) => sets.flat().includes(order.address));
    expect(placed).toHaveLength(300);
    const ids = placed.map((order) => order.id);
    expect(ledgerOrders(ids)).toEqual([...ids].sort());
  }, 180_000);

  it('two hosts at once on the same 8 addresses under 20/1h: they share the addresses out, 5 orders of 3.9 at the server between them, all in the ledger', async () => {
    const addresses = Array.from({ length: 8 }, (_, n) => activated(38_900 + n));
    const args = ['ensure', ...rentalArgs(addresses, '--yes', '--max-spend', '20/1h', '--budget', 'eight')];
    const results = await Promise.all([host().run(args), host().run(args)]);
    // The hosts share the addresses out by their claims (the other's are claimed_elsewhere, not failures), and
    // both hold against the one ledger: whichever meets the ceiling fails those items (5, or 9 beside others).
    for (const result of results) expect([0, 5, 9], result.stderr).toContain(result.code);
    expect(results.some((result) => result.code !== 0)).toBe(true);
    const placed = world.sandbox.orders().filter((order) => addresses.includes(order.address));
    expect(placed.map((order) => order.total_trx)).toEqual(Array(5).fill('3.900000'));
    expect(ledgerOrders(placed.map((order) => order.id))).toEqual(placed.map((order) => order.id).sort());
  }, 60_000);

  it('one key under two spellings of the URL (127.0.0.1 and localhost) is one account: 10/1h holds for both, and the second says so', async () => {
    const [x, y, z] = [activated(39_401), activated(39_402), activated(39_403)];
    // A database of its own: the account's ledger without the orders of the tests before.
    cluster.current.sql('CREATE DATABASE spellings');
    const url = cluster.current.url.replace('/postgres?', '/spellings?');
    const numeric = host({ ENERGY_BASE_URL: world.sandbox.url, ENERGY_STATE_URL: url });
    const named = host({
      ENERGY_BASE_URL: world.sandbox.url.replace('127.0.0.1', 'localhost'),
      ENERGY_STATE_URL: url,
    });
    const ceiling = ['--yes', '--max-spend', '10/1h', '--json'];
    expect((await numeric.run(['ensure', ...rentalArgs(x, ...ceiling)])).code).toBe(0);
    const second = await named.run(['ensure', ...rentalArgs(y, ...ceiling)]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(
      /is used at http:\/\/localhost:\d+ and at http:\/\/127\.0\.0\.1:\d+: one --max-spend ledger/,
    );
    const third = await numeric.run(['ensure', ...rentalArgs(z, ...ceiling)]);
    expect(third.code, third.stderr).toBe(5);
    expect(world.sandbox.orders().filter((order) => [x, y, z].includes(order.address))).toHaveLength(2);
  }, 60_000);

  it('energy state import moves a folder ledger in, each event once: the shared ceiling counts what the folder spent', async () => {
    const [a, b] = [activated(39_501), activated(39_502)];
    const folder = mkdtempSync(join(tmpdir(), 'energy-local-'));
    const local = { ENERGY_STATE_DIR: folder, ENERGY_STATE_URL: '', ENERGY_TRON_NODE: world.sandbox.url };
    const ceiling = ['--yes', '--max-spend', '5/1h', '--budget', 'moving', '--json'];
    expect((await world.run(['ensure', ...rentalArgs(a, ...ceiling)], { env: local })).code).toBe(0);
    const importing = { ...cluster.current.env, ENERGY_STATE_DIR: folder };
    const first = await world.run(['state', 'import', '--json'], { env: importing });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).spend).toEqual({ ledgers: 1, events: 2 });
    const again = await world.run(['state', 'import', '--json'], { env: importing });
    expect(JSON.parse(again.stdout).spend).toEqual({ ledgers: 1, events: 0 });
    const shared = await host().run(['ensure', ...rentalArgs(b, ...ceiling)]);
    expect(shared.code, shared.stderr).toBe(5);
    expect(JSON.parse(shared.stdout).items[0].error.message).toMatch(/: 1\.100000 TRX left of 5\.000000;/);
    expect(world.sandbox.orders().filter((order) => order.address === b)).toHaveLength(0);
  }, 60_000);

  it('energy state status shows each ledger with what it counts over its longest window, beside the host that claimed', async () => {
    const [a, b] = [activated(39_701), activated(39_702)];
    const shared = host();
    const ceiling = ['--yes', '--max-spend', '20/2h', '--budget', 'status-shown', '--json'];
    const run = await shared.run(['ensure', ...rentalArgs([a, b], ...ceiling)]);
    expect(run.code, run.stderr).toBe(0);
    const status = await shared.run(['state', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    const document = JSON.parse(status.stdout) as {
      runs: { total: number; not_ended: number };
      leases: { held: number };
      ledgers: { ledger: string; longest_window_ms: number; entries: number; spent_trx: string }[];
    };
    expect(document.ledgers.find((ledger) => ledger.ledger === 'budget status-shown')).toEqual({
      ledger: 'budget status-shown',
      longest_window_ms: 7_200_000,
      entries: 2,
      spent_trx: '7.800000',
    });
    // The run (no host: a one-shot run) claimed the addresses, let them go and said it ended.
    expect(document.runs.total).toBeGreaterThanOrEqual(1);
    expect(document.runs.not_ended).toBe(0);
    expect(document.leases.held).toBe(0);
    const table = await shared.run(['state', 'status']);
    expect(table.stdout).toMatch(/budget.status-shown\s+2h\s+2\s+7\.800000/);
    // The same ledger in a state folder: the folder's status sums it the same way.
    const folder = { ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-status-')), ENERGY_STATE_URL: '' };
    const local = { ...folder, ENERGY_TRON_NODE: world.sandbox.url };
    const c = activated(39_703);
    expect((await world.run(['ensure', ...rentalArgs(c, ...ceiling)], { env: local })).code).toBe(0);
    const folderStatus = JSON.parse(
      (await world.run(['state', 'status', '--json'], { env: local })).stdout,
    ) as typeof document;
    expect(folderStatus.ledgers).toEqual([
      { ledger: 'budget status-shown', longest_window_ms: 7_200_000, entries: 1, spent_trx: '3.900000' },
    ]);
  }, 60_000);

  /** One hold of 3.900000 under `trx` over `windowMs`, at `nowMs`: held or not. */
  const holdOne = async (shared: SpendLedger, id: string, nowMs: number, trx = '50.000000', windowMs = HOUR) =>
    (
      await shared.hold({
        holder: 'run-1',
        keyId: 'k',
        origin: 'o',
        wanted: [{ id, address: 'T', total: '3.900000' }],
        trx,
        windowMs,
        nowMs,
      })
    ).shortfalls[0] === undefined;
  const rowsOf = (name: string) =>
    cluster.current.sql(`SELECT count(*) FROM energy.spend_event WHERE ledger = '${name}'`);

  it('concurrent holds from 4 connections: 160 wanting 3.9 under 50 hold exactly 12', async () => {
    const opened = await Promise.all(Array.from({ length: 4 }, () => ledger('budget race')));
    try {
      const wants = opened.flatMap(({ ledger: shared }, n) =>
        Array.from({ length: 40 }, (_, k) => holdOne(shared, `w${n}-${k}`, T)),
      );
      expect((await Promise.all(wants)).filter(Boolean)).toHaveLength(12);
    } finally {
      for (const { close } of opened) await close();
    }
    expect(rowsOf('budget race')).toBe('12');
  }, 60_000);

  it('counts only the window (an order at T is not counted after T+1h); a refund stays one when the order is learnt again; prunes only past the longest window, and never past its newest entry less that window', async () => {
    const { ledger: first, close } = await ledger('budget rules');
    try {
      expect(await holdOne(first, 'a', T, '50.000000', 24 * HOUR)).toBe(true);
      expect(await holdOne(first, 'b', T, '50.000000', 24 * HOUR)).toBe(true);
      await first.append(
        [
          { kind: 'order', id: 'a', order_id: 'oa', address: 'T', total_trx: '3.900000', at_ms: T },
          { kind: 'order', id: 'b', order_id: 'ob', address: 'T', total_trx: '3.900000', at_ms: T },
          { kind: 'final', id: 'b', state: 'refunded', at_ms: T, note: null },
          { kind: 'order', id: 'b', order_id: 'ob', address: 'T', total_trx: '3.900000', at_ms: T + 10 },
          // An outcome of an entry the ledger never had is not kept.
          { kind: 'final', id: 'never-held', state: 'kept', at_ms: T, note: null },
        ],
        T,
      );
    } finally {
      await close();
    }
    const { ledger: second, close: closeSecond } = await ledger('budget rules');
    try {
      expect(await second.spent(T - HOUR)).toBe('3.900000');
      expect(await second.spent(T + 1_000)).toBe('0.000000');
      expect(await second.totals(T + HOUR)).toEqual({
        ledger: 'budget rules',
        longest_window_ms: 24 * HOUR,
        entries: 1,
        spent_trx: '3.900000',
      });
      expect(rowsOf('budget rules')).toBe('6');
      // A run three days past every entry (a clock far ahead) forgets nothing: the newest entry bounds a prune.
      expect(await holdOne(second, 'late', T + 72 * HOUR, '1.000000', 60_000)).toBe(false);
      expect(rowsOf('budget rules')).toBe('6');
      // A minute-long ceiling a day and a minute later: its hold prunes nothing yet (the day's window, its slack).
      expect(await holdOne(second, 'c', T + 24 * HOUR + 60_000, '50.000000', 60_000)).toBe(true);
      expect(rowsOf('budget rules')).toBe('7');
      // Five minutes on: the newest entry before it (c's) is still within the day and its slack of a and b.
      expect(await holdOne(second, 'd', T + 24 * HOUR + 6 * 60_000, '50.000000', 60_000)).toBe(true);
      expect(rowsOf('budget rules')).toBe('8');
      // Then the newest entry (d's) is past the day's window and its slack from a and b: they go.
      expect(await holdOne(second, 'e', T + 25 * HOUR, '50.000000', 60_000)).toBe(true);
      expect(
        cluster.current.sql(
          "SELECT string_agg(DISTINCT client_request_id, ',' ORDER BY client_request_id) FROM energy.spend_event WHERE ledger = 'budget rules'",
        ),
      ).toBe('c,d,e');
      expect(
        cluster.current.sql("SELECT longest_window_ms FROM energy.spend_ledger WHERE ledger = 'budget rules'"),
      ).toBe(String(24 * HOUR));
    } finally {
      await closeSecond();
    }
  }, 60_000);

  it("upgrading a database whose ledger an older energy wrote (schema 2, energy.spend): its rows count in the key's ledger", async () => {
    cluster.current.sql('CREATE DATABASE old_spend');
    // Schema 2 as an older energy left it: its two migrations, written out here.
    cluster.current.sql(SCHEMA_TWO_SQL, 'old_spend');
    const keyId = `sha256:${createHash('sha256').update(world.sandbox.apiKey).digest('hex').slice(0, 16)}`;
    const serverNow = (JSON.parse((await httpGet(`${world.sandbox.url}/v1/time`)).body) as { unix_time: number })
      .unix_time;
    cluster.current.sql(
      `INSERT INTO energy.spend VALUES ('${world.sandbox.url}', '${keyId}', 'old-order', 'TOLD', 3.9, ${serverNow * 1000 - 60_000}, 'kept'),
         ('${world.sandbox.url}', '${keyId}', 'refunded-order', 'TOLD', 3.9, ${serverNow * 1000 - 60_000}, 'refunded')`,
      'old_spend',
    );
    const address = activated(39_601);
    const url = cluster.current.url.replace('/postgres?', '/old_spend?');
    const upgraded = await host({ ENERGY_STATE_URL: url }).run([
      'ensure',
      ...rentalArgs(address, '--yes', '--max-spend', '5/1h', '--json'),
    ]);
    expect(upgraded.code, upgraded.stderr).toBe(5);
    expect(JSON.parse(upgraded.stdout).items[0].error.message).toMatch(/: 1\.100000 TRX left of 5\.000000;/);
    expect(cluster.current.sql("SELECT to_regclass('energy.spend') IS NULL", 'old_spend')).toBe('t');
    expect(
      cluster.current
        .sql('SELECT kind, client_request_id FROM energy.spend_event ORDER BY seq', 'old_spend')
        .split('\n')
        .sort(),
    ).toEqual([
      'final|v1 old-order',
      'final|v1 refunded-order',
      'hold|v1 old-order',
      'hold|v1 refunded-order',
      'order|v1 old-order',
      'order|v1 refunded-order',
    ]);
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(0);
  }, 60_000);
});
