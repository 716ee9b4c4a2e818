/**
 * What writing to the --max-spend ledger in PostgreSQL reads (issue 47, the cycle after the buying one): each
 * event added makes its entry's row again from that entry's own events (schema migrations 5 and 11), a few rows,
 * however many the ledger holds. A session that started on a nearly empty ledger (a new ledger, its table not
 * yet analyzed) kept its first plan for that, which read every event of the ledger per event added: settling
 * 500 orders took about a second beside 6,000 events in `bench/fleet-cycles.mjs`. Counted at the server: the
 * rows of energy.spend_event that scans returned (pg_stat_user_tables).
 *
 * When a session's counts reach the statistics (PostgreSQL 15+, src/backend/utils/activity/pgstat.c,
 * pgstat_report_stat): as it goes idle, unless it flushed less than PGSTAT_MIN_INTERVAL (1 s) before; then
 * PGSTAT_IDLE_INTERVAL (10 s) later, forced, by the idle timer; and, forced, as it ends. So the count in the
 * middle of the session is waited for past those 10 s, and the one at the end is read once the store has closed.
 */
import { expect, it } from 'vitest';
import { until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { readStateUrl } from '../../src/config/state-url.js';
import type { SpendEvent } from '../../src/journal/spend-ledger.js';

const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, "the --max-spend ledger's writes", () => {
  const cluster = clusterForSuite(bin);

  it('a session that began on an empty ledger settles 500 outcomes beside 4,000 events reading a few rows an outcome, not the ledger', async () => {
    cluster.current.sql('CREATE DATABASE plans');
    const sql = (query: string) => cluster.current.sql(query, 'plans');
    const url = cluster.current.url.replace('/postgres?', '/plans?');
    /** Rows of energy.spend_event inserted, and returned by scans, as the statistics have them. */
    const counts = () => {
      const [inserted, read] = sql(
        "SELECT n_tup_ins, seq_tup_read + COALESCE(idx_tup_fetch, 0) FROM pg_stat_user_tables WHERE relid = 'energy.spend_event'::regclass",
      ).split('|');
      return { inserted: Number(inserted), read: Number(read) };
    };
    const once = (inserted: number) =>
      until(`${inserted} events counted`, () => counts().inserted === inserted, 30_000);
    const { PgStore } = await import('../../src/state/pg/pg-store.js');
    const store = await PgStore.open(readStateUrl(url), { PGPASSWORD: cluster.current.password });
    const at = 1_800_000_000_000;
    const entry = (n: number): SpendEvent[] => [
      {
        kind: 'hold',
        id: `need-${n}`,
        holder: 'host-a',
        address: `T${n}`,
        total_trx: '1.500000',
        key_id: 'k',
        origin: 'o',
        at_ms: at,
      },
      { kind: 'order', id: `need-${n}`, order_id: `order-${n}`, address: `T${n}`, total_trx: '1.500000', at_ms: at },
    ];
    try {
      const ledger = await store.spendLedger('budget plans');
      // The ledger made by a first hold (its row), then one entry at a time while it is nearly empty: the
      // session's first calls (and a plan it keeps), then 2,000 orders.
      const wanted = [{ id: 'need-first', address: 'T', total: '1.500000' }];
      const request = { holder: 'host-a', keyId: 'k', origin: 'o', wanted, trx: '100000', windowMs: 86_400_000 };
      expect((await ledger.hold({ ...request, nowMs: at })).shortfalls).toEqual([undefined]);
      for (let n = 0; n < 8; n += 1) await ledger.append(entry(n), at);
      for (let from = 8; from < 2_008; from += 250)
        await ledger.append(Array.from({ length: 250 }, (_, k) => entry(from + k)).flat(), at);
      const before = await once(4_017).then(counts);
      // One cycle's outcomes, one statement, in the same session.
      const finals = Array.from({ length: 500 }, (_, n): SpendEvent => {
        return { kind: 'final', id: `need-${n}`, state: n % 5 === 0 ? 'refunded' : 'kept', at_ms: at + 1, note: null };
      });
      await ledger.append(finals, at + 1);
      // The ceiling's sum, from the entries the events made: 2,008 orders and the first hold at 1.5 each, the 100
      // refunded not counted. (It reads energy.spend_entry, and no event: none is damaged.)
      expect(await ledger.spent(at - 1)).toBe('2863.500000');
      await store.close();
      await once(4_517);
      // Each outcome reads its entry's events (a hold and an order; checked once whether the entry is there, once
      // for the entry), at most 10 rows, and the statement may look the outcomes' entries up in one pass over the
      // ledger (4,017 events). A scan of the ledger for each outcome reads about 2 of each event there, 500 times:
      // 4 million.
      expect(counts().read - before.read).toBeLessThanOrEqual(4_017 + 10 * 500);
    } finally {
      await store.close();
    }
  }, 120_000);
});
