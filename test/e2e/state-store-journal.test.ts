/**
 * The order journal in PostgreSQL, through PgStore as a run opens it, against a private cluster: the first
 * writer's record kept, the first answer kept, one account per API key whatever the URL's spelling, a decision
 * reading its own addresses' rows, and a database of the earlier layout (rows keyed by URL and key) moved to
 * one record per key and id, duplicates set apart and still readable.
 */
import { expect, it, onTestFinished } from 'vitest';
import type { OrderJournal } from '../../src/journal/order-journal.js';
import { PgStore } from '../../src/state/pg/pg-store.js';
import { SCHEMA_VERSION } from '../../src/state/pg/pg-schema.js';
import { freshAddress } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { SCHEMA_TWO_SQL } from '../helpers/pg-schema-two.js';
import { readStateUrl } from '../../src/config/state-url.js';

const bin = postgresBin();
const KEY = 'sha256:00000000000000aa';

function body(address: string, energy = 65_000, id = 'x'): string {
  return JSON.stringify({
    client_request_id: id,
    address,
    energy,
    duration_hours: 1,
    expected_total_trx: '3.700000',
  });
}

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'the journal in PostgreSQL', () => {
  const cluster = clusterForSuite(bin);

  async function open(database = 'postgres'): Promise<PgStore> {
    const url = cluster.current.url.replace('/postgres?', `/${database}?`);
    const store = await PgStore.open(readStateUrl(url), { PGPASSWORD: cluster.current.password });
    onTestFinished(() => store.close());
    return store;
  }
  const journalOf = async (origin: string, store?: PgStore): Promise<OrderJournal> =>
    (store ?? (await open())).journal({ origin, keyId: KEY });

  it('begin twice: the first writer’s record is returned, pending or ordered; a refused one is replaced', async () => {
    const journal = await journalOf('https://api.energy.test');
    const a = freshAddress(38_401);
    const first = await journal.begin('twice-1', body(a, 65_000));
    expect(first.fresh).toBe(true);
    const second = await journal.begin('twice-1', body(a, 66_000));
    expect(second).toMatchObject({ fresh: false, record: { body: body(a, 65_000) } });
    await journal.settle(first.record, { kind: 'created', order_id: 'order-x' });
    const third = await journal.begin('twice-1', body(a, 67_000));
    expect(third).toMatchObject({
      fresh: false,
      record: { body: body(a, 65_000), outcome: { kind: 'created', order_id: 'order-x' } },
    });
    const refused = await journal.begin('twice-2', body(a, 65_000));
    await journal.settle(refused.record, { kind: 'refused', status: 409, code: null });
    const again = await journal.begin('twice-2', body(a, 66_000));
    expect(again).toMatchObject({ fresh: true, record: { body: body(a, 66_000), outcome: null } });
  });

  it('settle twice: the first answer stays', async () => {
    const journal = await journalOf('https://api.energy.test');
    const { record } = await journal.begin('settle-1', body(freshAddress(38_402)));
    await journal.settle(record, { kind: 'created', order_id: 'order-first' });
    const second = await journal.settle(record, { kind: 'refused', status: 409, code: null });
    expect(second.outcome).toMatchObject({ kind: 'created', order_id: 'order-first' });
    expect((await journal.find('settle-1'))!.outcome).toMatchObject({ kind: 'created', order_id: 'order-first' });
  });

  it('one account per key: a record written under http://127.0.0.1:p is found, pending and settled, under http://localhost:p', async () => {
    const store = await open();
    const numeric = await journalOf('http://127.0.0.1:8787', store);
    const named = await journalOf('http://localhost:8787', store);
    const { record } = await numeric.begin('spelling-1', body(freshAddress(38_403)));
    expect((await named.pending()).map((r) => r.client_request_id)).toContain('spelling-1');
    expect(named.covers(record)).toBe(true);
    expect(await named.begin('spelling-1', body(freshAddress(38_403), 70_000))).toMatchObject({ fresh: false });
    await named.settle(record, { kind: 'created', order_id: 'order-s' });
    expect((await numeric.find('spelling-1'))!.outcome).toMatchObject({ order_id: 'order-s' });
  });

  it("a decision's read holds its own addresses' records only", async () => {
    const journal = await journalOf('https://api.energy.test');
    const [mine, other] = [freshAddress(38_404), freshAddress(38_405)];
    const a = await journal.begin('mine-1', body(mine));
    await journal.begin('other-1', body(other));
    await journal.settle(a.record, { kind: 'created', order_id: 'order-mine' });
    await journal.begin('mine-2', body(mine));
    expect((await journal.pending([mine])).map((r) => r.client_request_id)).toEqual(['mine-2']);
    expect((await journal.ordered(0, [mine])).map((r) => r.client_request_id)).toEqual(['mine-1']);
    expect((await journal.pending([other])).map((r) => r.client_request_id)).toEqual(['other-1']);
  });

  it('a database of the earlier layout: one record per key and id, the one with an order kept, the other set apart', async () => {
    cluster.current.sql('CREATE DATABASE layout_two');
    const [address, lone] = [freshAddress(38_406), freshAddress(38_407)];
    // Schema version 2 as the earlier energy wrote it: rows keyed by (origin, key_id, client_request_id).
    cluster.current.sql(
      `${SCHEMA_TWO_SQL}
       INSERT INTO energy.journal (origin, key_id, client_request_id, body, journaled_at, outcome, host) VALUES
         ('http://localhost:8787', '${KEY}', 'both-1', '${body(address)}', now() - interval '2 minutes', NULL, 'a'),
         ('http://127.0.0.1:8787', '${KEY}', 'both-1', '${body(address)}', now() - interval '1 minute',
          '{"kind": "created", "at": "2026-11-23T10:00:00.000Z", "order_id": "order-both"}', 'b'),
         ('http://localhost:8787', '${KEY}', 'lone-1', '${body(lone)}', now(), NULL, 'a');`,
      'layout_two',
    );
    const store = await open('layout_two');
    expect(store.schemaVersion).toBe(SCHEMA_VERSION);
    const journal = await journalOf('http://localhost:8787', store);
    expect((await journal.find('both-1'))!.outcome).toMatchObject({ kind: 'created', order_id: 'order-both' });
    expect((await journal.pending()).map((r) => r.client_request_id)).toEqual(['lone-1']);
    // The address moved beside each row: a decision finds its records by it.
    expect((await journal.pending([lone])).map((r) => r.client_request_id)).toEqual(['lone-1']);
    expect(
      cluster.current.sql('SELECT origin, client_request_id, outcome IS NULL FROM energy.journal_merged', 'layout_two'),
    ).toBe('http://localhost:8787|both-1|t');
    expect((await store.status()).merged_records).toBe(1);
  });
});
