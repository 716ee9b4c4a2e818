/**
 * The --max-spend ledger in PostgreSQL as the database sums it: 16 processes at once under one ceiling never
 * pass it by one micro-TRX (and an order exactly equal to what is left fits); a database at schema 4 with
 * events in it upgrades to 5 keeping its ceiling's counts; rows are checked (the schema refuses an amount below
 * zero or missing; a row an older schema let in is named as damaged, never counted as nothing). Counted at the
 * sandbox, and in the database by SQL.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freshAddress, httpGet } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { readStateUrl } from '../../src/config/state-url.js';

const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'the --max-spend ledger summed by PostgreSQL', () => {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });
  const cluster = clusterForSuite(bin);

  const env = (extra: Record<string, string> = {}) => ({
    ...cluster.current.env,
    ENERGY_TRON_NODE: world.sandbox.url,
    ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-ledger-pg-')),
    ...extra,
  });
  const activated = (n: number) => {
    const address = freshAddress(n);
    world.sandbox.seedTronAccount(address, { activated: true });
    return address;
  };

  it('16 processes at once, 3 addresses each, under 46.8/1h: exactly 12 orders of 3.9 (46.800000, the last exactly what was left), none past it', async () => {
    world.sandbox.setRates({ 1: '0.000060' });
    world.sandbox.setBalance('1000.000000');
    const sets = Array.from({ length: 16 }, (_, p) => [0, 1, 2].map((n) => activated(41_000 + p * 10 + n)));
    const ceiling = ['--yes', '--max-spend', '46.8/1h', '--budget', 'sixteen', '--json'];
    const results = await Promise.all(
      sets.map((addresses) => world.run(['ensure', ...rentalArgs(addresses, ...ceiling)], { env: env() })),
    );
    for (const result of results) expect([0, 5], result.stderr).toContain(result.code);
    const placed = world.sandbox.orders().filter((order) => sets.flat().includes(order.address));
    expect(placed.map((order) => order.total_trx)).toEqual(Array(12).fill('3.900000'));
    expect(
      cluster.current.sql(
        "SELECT count(*), sum(total_trx) FROM (SELECT DISTINCT ON (client_request_id) total_trx FROM energy.spend_event WHERE ledger = 'budget sixteen' AND kind = 'order' ORDER BY client_request_id, seq) AS first_orders",
      ),
    ).toBe('12|46.800000');
  }, 180_000);

  it('a database at schema 4 with events in it upgrades to 11 keeping what its ceiling counts; a damaged row an older schema let in is named, and the schema refuses new ones', async () => {
    world.sandbox.setRates({ 1: '0.000060' });
    cluster.current.sql('CREATE DATABASE at_four');
    const url = cluster.current.url.replace('/postgres?', '/at_four?');
    const sql = (query: string) => cluster.current.sql(query, 'at_four');
    // Schema 11 made by this energy, taken back to 4 as an older energy left it (migrations 5 to 11 add only these).
    const first = await world.run(['state', 'status', '--json'], { env: env({ ENERGY_STATE_URL: url }) });
    expect(first.code, first.stderr).toBe(0);
    sql(`DELETE FROM energy.schema_version WHERE version >= 5; ALTER TABLE energy.hosts DROP COLUMN ended_at, DROP COLUMN last_seen_at; DROP TABLE energy.final_order;
         DROP TABLE energy.order_list; DROP TABLE energy.order_list_item;
         ALTER TABLE energy.spend_event DROP CONSTRAINT spend_event_whole;
         DROP INDEX energy.spend_event_at; DROP TABLE energy.spend_origin;
         DROP TRIGGER spend_event_changed ON energy.spend_event; DROP TABLE energy.spend_entry;
         DROP FUNCTION energy.spend_event_changed(); DROP FUNCTION energy.spend_entry_refresh(text, text);
         DROP TABLE energy.known_account`);
    expect(sql('SELECT max(version) FROM energy.schema_version')).toBe('4');
    const keyId = `sha256:${createHash('sha256').update(world.sandbox.apiKey).digest('hex').slice(0, 16)}`;
    const serverNowMs =
      (JSON.parse((await httpGet(`${world.sandbox.url}/v1/time`)).body) as { unix_time: number }).unix_time * 1000;
    const at = serverNowMs - 60_000;
    const ledger = `account ${keyId}`;
    const origin = world.sandbox.url;
    sql(`INSERT INTO energy.spend_ledger VALUES ('${ledger}', 3600000);
         INSERT INTO energy.spend_event (ledger, event_id, kind, client_request_id, holder, address, total_trx, order_id, key_id, origin, at_ms, host) VALUES
           ('${ledger}', 'e1', 'hold', 'ok-1', 'run-1', 'TOLD', 3.9, NULL, '${keyId}', '${origin}', ${at}, 'old'),
           ('${ledger}', 'e2', 'order', 'ok-1', NULL, 'TOLD', 3.9, 'order-ok-1', NULL, NULL, ${at}, 'old'),
           ('${ledger}', 'e3', 'order', 'bad-1', NULL, 'TOLD', -1000, 'order-bad-1', NULL, NULL, ${at}, 'old'),
           ('${ledger}', 'e4', 'order', 'bad-2', NULL, 'TOLD', NULL, 'order-bad-2', NULL, NULL, ${at}, 'old')`);
    const seqOf = (event: string) => sql(`SELECT seq FROM energy.spend_event WHERE event_id = '${event}'`);
    const address = activated(41_900);
    const run = () =>
      world.run(['ensure', ...rentalArgs(address, '--yes', '--max-spend', '5/1h', '--json')], {
        env: env({ ENERGY_STATE_URL: url }),
      });
    // The order of -1000 TRX would lift the ceiling: it is named, and nothing is ordered.
    const damaged = await run();
    expect(damaged.code, damaged.stderr).toBe(11);
    expect(damaged.stdout + damaged.stderr).toContain(
      `has a damaged row in the state store (energy.spend_event seq ${seqOf('e3')}, a order event`,
    );
    expect(sql('SELECT max(version) FROM energy.schema_version')).toBe('11');
    sql("DELETE FROM energy.spend_event WHERE event_id = 'e3'");
    // The NULL amount, next: named too (not a DecimalError).
    const missing = await run();
    expect(missing.code, missing.stderr).toBe(11);
    expect(missing.stdout + missing.stderr).toContain(`energy.spend_event seq ${seqOf('e4')}, a order event`);
    sql("DELETE FROM energy.spend_event WHERE event_id = 'e4'");
    // What the ledger counted at 4 it counts at 5: 3.9 of 5 spent, 1.1 left.
    const counted = await run();
    expect(counted.code, counted.stderr).toBe(5);
    expect(JSON.parse(counted.stdout).items[0].error.message).toMatch(/: 1\.100000 TRX left of 5\.000000;/);
    expect(sql('SELECT origin FROM energy.spend_origin')).toBe(origin);
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(0);
    // At 5 the schema itself refuses such rows.
    for (const [amount, id] of [
      ['-1000', 'bad-3'],
      ['NULL', 'bad-4'],
    ] as const)
      expect(() =>
        sql(`INSERT INTO energy.spend_event (ledger, event_id, kind, client_request_id, address, total_trx, order_id, at_ms, host)
             VALUES ('${ledger}', '${id}', 'order', '${id}', 'TOLD', ${amount}, 'o', ${at}, 'hand')`),
      ).toThrow(/spend_event_whole/);
  }, 120_000);

  it("two holders of one request, each drop read back by another connection; a failed write loses nothing; only the key's own open orders are rechecked", async () => {
    const { PgStore } = await import('../../src/state/pg/pg-store.js');
    const open = () => PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    const [one, two] = [await open(), await open()];
    try {
      const [first, second] = [await one.spendLedger('budget holders'), await two.spendLedger('budget holders')];
      const T = Date.UTC(2026, 10, 27, 12);
      const hold = (ledger: typeof first, holder: string, keyId: string, id: string, total: string) =>
        ledger.hold({
          holder,
          keyId,
          origin: 'o',
          wanted: [{ id, address: 'T', total }],
          trx: '50.000000',
          windowMs: 3_600_000,
          nowMs: T,
        });
      await hold(first, 'h1', 'k', 'shared', '3.900000');
      await hold(second, 'h2', 'k', 'shared', '4.200000');
      expect(await first.spent(T - 1)).toBe('4.200000');
      await second.append([{ kind: 'drop', id: 'shared', holder: 'h2', at_ms: T }], T);
      expect(await first.spent(T - 1)).toBe('3.900000');
      await first.append([{ kind: 'drop', id: 'shared', holder: 'h1', at_ms: T }], T);
      expect(await second.spent(T - 1)).toBe('0.000000');
      // An order of this key, and one of another key's run under the same budget.
      for (const [keyId, id] of [
        ['k', 'mine'],
        ['other', 'theirs'],
      ] as const) {
        await hold(first, 'h1', keyId, id, '1.000000');
        await first.append(
          [{ kind: 'order', id, order_id: `order-${id}`, address: 'T', total_trx: '1.000000', at_ms: T }],
          T,
        );
      }
      // A write the schema refuses fails as such, and what was counted stays counted.
      const refused = await second
        .append([{ kind: 'order', id: 'x', order_id: 'o', address: 'T', total_trx: '-1.000000', at_ms: T }], T)
        .catch((error: unknown) => error);
      expect((refused as Error).message).toMatch(/spend_event_whole/);
      expect(await second.spent(T - 1)).toBe('2.000000');
      expect(await second.openOrders(T - 1, 'k', 20)).toEqual([{ id: 'mine', order_id: 'order-mine' }]);
      expect(await second.openOrders(T - 1, 'other', 20)).toEqual([{ id: 'theirs', order_id: 'order-theirs' }]);
    } finally {
      await one.close();
      await two.close();
    }
  }, 60_000);
});
