/**
 * What the --max-spend ledger in PostgreSQL costs a fleet's cycle (issue 47): a service files every final
 * outcome of a cycle in one statement, and a reservation looks the holds its ledger lacks up in the journal in
 * one read. Counted at the server: rows inserted by one statement share its transaction (outside an explicit
 * transaction each statement is one: `xmin`), and statements from the server's own log (log_statement = all).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { readStateUrl } from '../../src/config/state-url.js';
import { orderRequestBody } from '../../src/client/client.js';
import type { QuoteResponse } from '../../src/client/types.js';

const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, "the --max-spend ledger's statements", () => {
  // Delivered a minute after the order: the test moves the sandbox's clock when it wants them delivered.
  const world = worldForSuite({ deliverAfterMs: 60_000, rateLimit: false });
  const cluster = clusterForSuite(bin);
  const sql = (query: string) => cluster.current.sql(query);
  /** A count once the schema is there (the service makes it), else undefined. */
  const count = (query: string) => {
    try {
      return sql(query);
    } catch {
      return undefined;
    }
  };
  const env = () => ({
    ...cluster.current.env,
    ENERGY_TRON_NODE: world.sandbox.url,
    ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-ledger-settle-')),
  });

  it("a service's cycle files all of its orders' final outcomes in one statement", async () => {
    const addresses = [0, 1, 2, 3, 4].map((n) => {
      const address = freshAddress(47_100 + n);
      world.sandbox.seedTronAccount(address, { activated: true });
      return address;
    });
    const ledger = "ledger = 'budget settle'";
    const running = world.spawn(
      // Cycles far apart: the sandbox's clock moves between two of them, never while one follows the orders.
      ['ensure', ...rentalArgs(addresses, '--yes', '--every', '10s', '--json')].concat([
        '--max-spend',
        '100/24h',
        '--budget',
        'settle',
      ]),
      { env: env() },
    );
    onTestFinished(() => void running.child.kill('SIGKILL'));
    // The orders this service placed and follows: one an address, whatever slice of its first cycle bought it.
    const bought = () =>
      running
        .output()
        .stdout.split('\n')
        .filter((line) => line.startsWith('{"cycle":'))
        .flatMap((line) => (JSON.parse(line) as { items: { bought: { client_request_id: string } | null }[] }).items)
        .flatMap((item) => (item.bought === null ? [] : [`'${item.bought.client_request_id}'`]));
    await until('the orders in the ledger', () =>
      count(`SELECT count(*) FROM energy.spend_entry WHERE ${ledger} AND order_id IS NOT NULL`) === '5'
        ? true
        : undefined,
    );
    await until('the first cycle ended', () => running.output().stdout.includes('{"cycle":1,'));
    const ids = bought();
    expect(ids).toHaveLength(5);
    // All delivered at once; the service's next cycle finds them final together.
    world.sandbox.advance(61_000);
    await until(
      'their outcomes filed',
      () =>
        count(`SELECT count(*) FROM energy.spend_entry WHERE ${ledger} AND final_state = 'kept'`) === String(ids.length)
          ? true
          : undefined,
      40_000,
    );
    running.child.kill('SIGTERM');
    expect((await running.result).code).toBe(0);
    expect(world.sandbox.orders().filter((order) => addresses.includes(order.address))).toHaveLength(5);
    // The rows of one statement: one transaction (one per order before).
    expect(
      sql(
        `SELECT count(*), count(DISTINCT xmin::text) FROM energy.spend_event WHERE ${ledger} AND kind = 'final' AND client_request_id IN (${ids.join(', ')})`,
      ),
    ).toBe(`${ids.length}|1`);
  }, 90_000);

  it("a reservation reads the journal once for the ledger's holds that lack an order, and files the order one of them has", async () => {
    const { PgStore } = await import('../../src/state/pg/pg-store.js');
    const { SpendCeiling } = await import('../../src/ensure/spend-ceiling.js');
    const { fakeServerClock } = await import('../helpers/fake-clock.js');
    const store = await PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    try {
      const scope = { origin: world.sandbox.url, keyId: 'sha256:lacking' };
      const journal = await store.journal(scope);
      const ledger = await store.spendLedger('budget lacking');
      const T = Date.UTC(2026, 11, 7, 12);
      // Twelve requests held by other runs, no order filed: eleven still on their way, one answered (its
      // holder killed between the answer and the ledger's line).
      const ids = Array.from({ length: 12 }, (_, n) => `lacking-${n}`);
      await ledger.hold({
        holder: 'elsewhere',
        keyId: scope.keyId,
        origin: scope.origin,
        wanted: ids.map((id) => ({ id, address: freshAddress(47_200), total: '1.000000' })),
        trx: '100.000000',
        windowMs: 3_600_000,
        nowMs: T,
      });
      for (const id of ids) {
        const body = orderRequestBody({
          client_request_id: id,
          address: freshAddress(47_200),
          energy: 65_000,
          duration_hours: 1,
          expected_total_trx: '1.000000',
        });
        const { record } = await journal.begin(id, body);
        if (id === 'lacking-3') await journal.settle(record, { kind: 'created', order_id: 'order-of-3' });
      }
      const ceiling = new SpendCeiling({
        ceiling: { trx: '100.000000', windowMs: 3_600_000, text: '100/1h', budget: 'lacking' },
        open: async () => ({ ledger, journal }),
        note: () => undefined,
      });
      const log = join(cluster.current.socketDir, 'log');
      sql("ALTER SYSTEM SET log_statement = 'all'");
      sql("ALTER SYSTEM SET log_line_prefix = '%a|'");
      sql('SELECT pg_reload_conf()');
      // In effect once a new session has it: the server has read it again and told every session so.
      await until('log_statement in effect', () => (sql('SHOW log_statement') === 'all' ? true : undefined));
      const before = readFileSync(log, 'utf8').length;
      try {
        const reservation = await ceiling.reserve([], fakeServerClock(T + 1_000), { getOrder: async () => never() });
        expect(reservation.purchases).toEqual([]);
      } finally {
        sql('ALTER SYSTEM RESET log_statement');
        sql('SELECT pg_reload_conf()');
      }
      const journalReads = readFileSync(log, 'utf8')
        .slice(before)
        .split(/\n(?=[^\n]*\|[A-Z]+: {2})/)
        .filter((entry) => /^energy\/[^\n]*\|LOG: {2}(statement|execute [^:]*):[^]*FROM energy\.journal/.test(entry));
      expect(journalReads, journalReads.join('\n')).toHaveLength(1);
      expect(
        sql(
          "SELECT client_request_id, order_id FROM energy.spend_entry WHERE ledger = 'budget lacking' AND order_id IS NOT NULL",
        ),
      ).toBe('lacking-3|order-of-3');
    } finally {
      await store.close();
    }
  }, 60_000);

  it('a hold is one short transaction of six statements: the row lock, one reading, one write beside the holds, their insert', async () => {
    const { PgStore } = await import('../../src/state/pg/pg-store.js');
    const store = await PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    try {
      const ledger = await store.spendLedger('budget six');
      const T = Date.UTC(2026, 11, 7, 12);
      const hold = (id: string, windowMs: number, nowMs: number) =>
        ledger.hold({
          holder: `run-${id}`,
          keyId: 'sha256:six',
          origin: 'https://api.energy.test',
          wanted: [{ id, address: freshAddress(47_300), total: '3.900000' }],
          trx: '10.000000',
          windowMs,
          nowMs,
        });
      // A first hold two hours back. The next, over three hours: it counts the first, looks for what to prune,
      // widens the ledger's longest window and notes its origin.
      expect((await hold('six-1', 3_600_000, T - 7_200_000)).shortfalls).toEqual([undefined]);
      const log = join(cluster.current.socketDir, 'log');
      sql("ALTER SYSTEM SET log_statement = 'all'");
      sql("ALTER SYSTEM SET log_line_prefix = '%a|'");
      sql('SELECT pg_reload_conf()');
      // In effect once a new session has it: the server has read it again and told every session so.
      await until('log_statement in effect', () => (sql('SHOW log_statement') === 'all' ? true : undefined));
      const before = readFileSync(log, 'utf8').length;
      try {
        // 3.9 of 10 counted (the first hold, within the wider window): a second fits, a third would not.
        expect((await hold('six-2', 3 * 3_600_000, T)).shortfalls).toEqual([undefined]);
      } finally {
        sql('ALTER SYSTEM RESET log_statement');
        sql('SELECT pg_reload_conf()');
      }
      const sent = readFileSync(log, 'utf8')
        .slice(before)
        .split(/\n(?=[^\n]*\|[A-Z]+: {2})/)
        .filter((entry) => /^energy\/[^\n]*\|LOG: {2}(statement|execute [^:]*):/.test(entry));
      expect(sent, sent.join('\n')).toHaveLength(6);
      expect(sent[0]).toMatch(/BEGIN/);
      expect(sent[5]).toMatch(/COMMIT/);
      expect(sql("SELECT longest_window_ms FROM energy.spend_ledger WHERE ledger = 'budget six'")).toBe('10800000');
      expect(sql("SELECT origin FROM energy.spend_origin WHERE ledger = 'budget six'")).toBe('https://api.energy.test');
      expect(
        sql(
          "SELECT string_agg(client_request_id, ',' ORDER BY client_request_id) FROM energy.spend_entry WHERE ledger = 'budget six'",
        ),
      ).toBe('six-1,six-2');
      expect((await hold('six-3', 3 * 3_600_000, T)).shortfalls).not.toEqual([undefined]);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('orders placed side by side are filed together: each in the ledger when its caller goes on, one write for those that met', async () => {
    const { PgStore } = await import('../../src/state/pg/pg-store.js');
    const { SpendCeiling } = await import('../../src/ensure/spend-ceiling.js');
    const { newItem } = await import('../../src/ensure/item.js');
    const { needId } = await import('../../src/ensure/need-id.js');
    const { fakeServerClock } = await import('../helpers/fake-clock.js');
    const { sampleOrder } = await import('../helpers/sample-order.js');
    const store = await PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    try {
      const scope = { origin: world.sandbox.url, keyId: 'sha256:grouped' };
      const [journal, ledger] = [await store.journal(scope), await store.spendLedger('budget grouped')];
      const ceiling = new SpendCeiling({
        ceiling: { trx: '100.000000', windowMs: 3_600_000, text: '100/1h', budget: 'grouped' },
        open: async () => ({ ledger, journal }),
        note: () => undefined,
      });
      const purchases = [1, 2, 3, 4, 5].map((n) => ({
        item: { ...newItem(`T${n}`, 65_000, 0), to_buy: 65_000 },
        quote: { total_trx: '3.900000' } as QuoteResponse,
        need: { anchor: { periodStartMs: n }, windowStartMs: 0, listedSinceMs: undefined },
      }));
      const reservation = await ceiling.reserve(purchases, fakeServerClock(Date.UTC(2026, 11, 7, 12)), {
        getOrder: async () => never(),
      });
      const orders = purchases.map((purchase, n) =>
        sampleOrder({
          id: `grouped-${n}`,
          client_request_id: needId(purchase.item.address, purchase.need.anchor),
          address: purchase.item.address,
          total_trx: '3.900000',
        }),
      );
      for (const [n, purchase] of purchases.entries())
        expect(await reservation.holdOf(purchase)!.sending(orders[n]!.client_request_id)).toBeUndefined();
      // Five answers at once: the first is written alone, the four that came meanwhile in one write after it.
      await Promise.all(purchases.map((purchase, n) => reservation.holdOf(purchase)!.ordered(orders[n]!)));
      expect(
        sql(
          "SELECT count(*), count(DISTINCT xmin::text) FROM energy.spend_event WHERE ledger = 'budget grouped' AND kind = 'order'",
        ),
      ).toBe('5|2');
      expect(
        sql(
          "SELECT count(*), sum(amount) FROM energy.spend_entry WHERE ledger = 'budget grouped' AND order_id IS NOT NULL",
        ),
      ).toBe('5|19.500000');
    } finally {
      await store.close();
    }
  }, 60_000);
});

function never(): never {
  throw new Error('no order is read here');
}
