/**
 * `ensure`'s claims with leases on a real PostgreSQL (issue 39): hosts are processes with their own state
 * folders naming one database. An address another host holds is skipped, never waited on; a frozen host costs
 * its lease and nothing more; no transaction or lock is held while a host reads the node or the API. Orders
 * are counted at the sandbox, leases and sessions in the database.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { freshAddress, signedCall, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';
import { needId, periodStart, type Anchor } from '../../src/ensure/need-id.js';
import { keyIdOf } from '../../src/journal/record.js';
import { SCHEMA_VERSION } from '../../src/state/pg/pg-schema.js';
import { PgStore } from '../../src/state/pg/pg-store.js';
import { readStateUrl } from '../../src/config/state-url.js';

const bin = postgresBin();

interface Item {
  address: string;
  reason: string;
  bought?: { client_request_id: string } | null;
  available: number | null;
  claimed_by?: { host: string; until: string };
}
const items = (result: CliResult) => json<{ items: Item[] }>(result).items;
const reasonsOf = (result: CliResult) => Object.fromEntries(items(result).map((item) => [item.address, item.reason]));

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, "ensure's claims with leases", () => {
  // Slow deliveries: an order stays on its way while other hosts look.
  const world = worldForSuite({ rateLimit: false, deliverAfterMs: 60_000 });
  const cluster = clusterForSuite(bin);
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
  const keyId = () => keyIdOf(world.sandbox.apiKey);
  const sql = (query: string) => cluster.current.sql(query);

  /** A host: its own state folder, the shared database; `baseUrl` another spelling of the API's URL. */
  function host(baseUrl?: string) {
    const env = {
      ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
      ENERGY_TRON_NODE: world.sandbox.url,
      ...cluster.current.env,
      ...(baseUrl !== undefined && { ENERGY_BASE_URL: baseUrl }),
    };
    return {
      run: (args: string[]) => world.run(args, { env }),
      spawn: (args: string[]) => world.spawn(args, { env }),
    };
  }
  const ensure = (...addresses: string[]) => ['ensure', ...rentalArgs(addresses, '--yes', '--json')];

  it('an address another host holds is skipped, the others decided at once, in the order given (exit 0)', async () => {
    const [a, b, c] = [freshAddress(39_001), freshAddress(39_002), freshAddress(39_003)];
    // A decided before (its claim row there, let go; its order on its way), C never.
    expect((await host().run(ensure(a))).code).toBe(0);
    // Host "host-b" holds B's claim for a minute, as its claim statement wrote it.
    sql(
      `INSERT INTO energy.claims (key_id, address, holder, token, claimed_at, lease_until)
       VALUES ('${keyId()}', '${b}', 'host-b', 'token-b', now(), now() + interval '1 minute')`,
    );
    const result = await host().run(ensure(b, a, c));
    expect(result.code, result.stderr).toBe(0);
    expect(items(result).map((item) => [item.address, item.reason])).toEqual([
      [b, 'claimed_elsewhere'],
      [a, 'in_flight'],
      [c, 'bought'],
    ]);
    const [skipped] = items(result);
    expect(skipped).toMatchObject({ available: null, claimed_by: { host: 'host-b' } });
    expect(Date.parse(skipped!.claimed_by!.until)).toBeGreaterThan(Date.now() + 30_000);
    expect([ordersTo(b).length, ordersTo(a).length, ordersTo(c).length]).toEqual([0, 1, 1]);
    // Each let go once decided: no lease of this run's is left behind.
    expect(
      sql(`SELECT count(*) FROM energy.claims WHERE address IN ('${a}', '${c}') AND lease_until IS NOT NULL`),
    ).toBe('0');
  }, 60_000);

  it('a claim another host is taking at this instant (its row locked) is skipped, never waited on', async () => {
    const [a, b] = [freshAddress(39_011), freshAddress(39_012)];
    expect((await host().run(ensure(b))).code).toBe(0); // B's row exists (and B was bought for)
    const other = await import('pg').then(
      ({ default: pg }) =>
        new pg.Client({
          host: cluster.current.socketDir,
          user: 'postgres',
          database: 'postgres',
          password: cluster.current.password,
        }),
    );
    await other.connect();
    onTestFinished(() => other.end());
    // Another host's claim statement, stopped between locking B's row and committing.
    await other.query('BEGIN');
    await other.query('SELECT 1 FROM energy.claims WHERE key_id = $1 AND address = $2 FOR UPDATE', [keyId(), b]);
    const result = await host().run(ensure(b, a));
    await other.query('ROLLBACK');
    expect(result.code, result.stderr).toBe(0);
    expect(reasonsOf(result)).toEqual({ [b]: 'claimed_elsewhere', [a]: 'bought' });
    expect(ordersTo(a)).toHaveLength(1);
  }, 60_000);

  it('a frozen host (SIGSTOP) costs its lease only: the others decide its unrelated address at once, and its own once the lease expires', async () => {
    const [x, y] = [freshAddress(39_021), freshAddress(39_022)];
    const reads = () => world.sandbox.requestCount('/wallet/getaccountresource');
    // Host A's service reads X from the node slowly: it is frozen there, its claim on X taken.
    world.sandbox.inject({ kind: 'delay', ms: 3000, times: 1, match: { path: '/wallet/getaccountresource' } });
    const before = reads();
    const a = host().spawn(['ensure', ...rentalArgs(x, '--yes', '--json', '--every', '1s')]);
    onTestFinished(() => void a.child.kill('SIGKILL'));
    await until('host A claimed X and is reading it', () => reads() > before && held(x) === '1', 15_000);
    a.child.kill('SIGSTOP');
    // Nothing of A's is held open in the database while it is frozen mid-decision.
    expect(sql("SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'")).toBe('0');
    expect(sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")).toBe('0');
    const b = host();
    const first = await b.run(ensure(y, x));
    expect(first.code, first.stderr).toBe(0);
    // Not a wait for A (which would have ended in buying X once the lease expired): X skipped, Y bought.
    expect(reasonsOf(first)).toEqual({ [y]: 'bought', [x]: 'claimed_elsewhere' });
    expect(ordersTo(x)).toHaveLength(0);
    await until('the lease of the frozen host expires', () => held(x) === '0', 15_000);
    const second = await b.run(ensure(x));
    expect(second.code, second.stderr).toBe(0);
    expect(reasonsOf(second)).toEqual({ [x]: 'bought' });
    // A wakes: its claim was taken over, so it orders nothing for X.
    a.child.kill('SIGCONT');
    // Generous: thawed on a loaded machine, its timers (on the monotonic clock, which ran on while it was
    // frozen) all fire at once before the answers waiting in its sockets are read.
    await until('host A ended a cycle', () => a.output().stdout.includes('{"cycle":'), 45_000);
    // Its lease renewed before ordering found the claim gone: X is another host's decision now.
    const cycle = JSON.parse(a.output().stdout.split('\n')[0]!) as { items: Item[] };
    expect(cycle.items.map((item) => item.reason)).toEqual(['claimed_elsewhere']);
    a.child.kill('SIGTERM');
    expect((await a.result).code).toBe(0);
    expect(ordersTo(x)).toHaveLength(1);
    expect(ordersTo(y)).toHaveLength(1);
  }, 90_000);

  it('a live host keeps its lease past its length while its decision lasts (the heartbeat): no other host takes it', async () => {
    const x = freshAddress(39_061);
    // Host A's service waits 8 s for its quote: longer than its lease (5 s for --every 1s).
    world.sandbox.inject({ kind: 'delay', ms: 8000, times: 1, match: { path: '/v1/energy/quotes' } });
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const a = host().spawn(['ensure', ...rentalArgs(x, '--yes', '--json', '--every', '1s')]);
    onTestFinished(() => void a.child.kill('SIGKILL'));
    await until('host A asked for its quote', () => world.sandbox.requestCount('/v1/energy/quotes') > quotes, 15_000);
    await until(
      "host A's claim is older than its lease",
      () =>
        sql(
          `SELECT count(*) FROM energy.claims WHERE address = '${x}' AND claimed_at < now() - interval '6 seconds'`,
        ) === '1',
      20_000,
    );
    expect(held(x)).toBe('1');
    const b = await host().run(ensure(x));
    expect(reasonsOf(b)).toEqual({ [x]: 'claimed_elsewhere' });
    await until('host A bought', () => ordersTo(x).length === 1, 20_000);
    a.child.kill('SIGTERM');
    expect((await a.result).code).toBe(0);
    expect(ordersTo(x)).toHaveLength(1);
  }, 60_000);

  /** '1' while some host holds `address`'s lease, else '0'. */
  function held(address: string): string {
    return sql(`SELECT count(*) FROM energy.claims WHERE address = '${address}' AND lease_until > now()`);
  }

  it('the two spellings of the URL are one account: one host holds the claim, the other skips it', async () => {
    const x = freshAddress(39_041);
    const port = new URL(world.sandbox.url).port;
    world.sandbox.inject({ kind: 'delay', ms: 3000, times: 1, match: { path: '/v1/energy/quotes' } });
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const a = host(`http://127.0.0.1:${port}`).spawn(ensure(x));
    await until('host A asked for its quote', () => world.sandbox.requestCount('/v1/energy/quotes') > quotes, 15_000);
    const b = await host(`http://localhost:${port}`).run(ensure(x));
    expect(b.code, b.stderr).toBe(0);
    expect(reasonsOf(b)).toEqual({ [x]: 'claimed_elsewhere' });
    expect(items(b)[0]!.claimed_by!.host).toBe(hostname());
    const resultA = await a.result;
    expect(resultA.code, resultA.stderr).toBe(0);
    expect(reasonsOf(resultA)).toEqual({ [x]: 'bought' });
    expect(ordersTo(x)).toHaveLength(1);
    // Said once: the next run with that spelling has nothing new to say.
    expect(b.stderr).toContain('this API key was used with http://127.0.0.1');
    const again = await host(`http://localhost:${port}`).run(['order', 'pending']);
    expect(again.stderr).not.toContain('this API key was used');
  }, 60_000);

  it('a service takes its share of what is due, the most overdue first: its addresses over the services with its list', async () => {
    const store = await PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    onTestFinished(() => store.close());
    const key = 'sha256:00000000000000bb';
    const addresses = Array.from({ length: 40 }, (_, i) => freshAddress(39_600 + i));
    const fresh = Array.from({ length: 40 }, (_, i) => freshAddress(39_700 + i));
    const digest = (list: string[]) =>
      createHash('sha256')
        .update([...list].sort().join('\n'))
        .digest('hex')
        .slice(0, 32);
    // Every address decided before, the last ten longest ago. Seen just now: three other services of this account
    // with this list, one with another list, one of another account, one that last claimed an hour ago.
    const seen = (host: string, keyId: string, list: string, ago = '0 s') =>
      `('${host}', 1, '${keyId}', 60000, '${list}', 'p', now() - interval '${ago}', 0, 0)`;
    sql(
      `INSERT INTO energy.claims (key_id, address, holder, token, claimed_at)
       SELECT '${key}', a, 'earlier', 't', now() - interval '1 hour' - (CASE WHEN n > 30 THEN interval '1 hour' ELSE interval '0' END)
       FROM unnest(ARRAY['${addresses.join("','")}']) WITH ORDINALITY AS u(a, n);
       INSERT INTO energy.hosts (host, pid, key_id, every_ms, address_list, program, last_claim_at, last_claimed, last_skipped)
       VALUES ${[
         seen('h1', key, digest(addresses)),
         seen('h2', key, digest(addresses)),
         seen('h3', key, digest(addresses)),
         seen('h4', key, digest(fresh)),
         seen('h5', 'sha256:another-account', digest(addresses)),
         seen('h6', key, digest(addresses), '1 hour'),
         // This process's service itself, seen last interval: no longer new to the fleet, so not claiming in slices.
         `('${hostname()}', ${process.pid}, '${key}', 60000, 'an earlier list', 'p', now() - interval '50 s', 0, 0)`,
       ].join(', ')}`,
    );
    const claims = await store.claims({ note: () => undefined, everyMs: 60_000 });
    const scope = async () => ({ origin: 'https://api.energy.test', keyId: key });
    const service = await claims(scope, addresses);
    // ceil(1.25 × 40 / 4) = 13: the ten decided longest ago among them; all of its share at once.
    expect(service.mine).toHaveLength(13);
    expect(service.more).toBeUndefined();
    expect(addresses.slice(30).every((address) => service.mine.includes(address))).toBe(true);
    expect(service.elsewhere.size).toBe(27);
    await service.release();
    // One run decides every address it is given that no one holds.
    const once = await (await store.claims({ note: () => undefined }))(scope, addresses);
    expect(once.mine).toHaveLength(40);
    await once.release();
    // Another list, never seen: h4 has it too, so the share is ceil(1.25 × 40 / 2) = 25; the rest are each said.
    const first = await claims(scope, fresh);
    // (Which 25: in an order of the claim's own, so that hosts claiming at once mostly take different ones.)
    expect(first.mine).toHaveLength(25);
    expect(first.mine).toEqual(fresh.filter((address) => first.mine.includes(address)));
    expect([...first.elsewhere.keys()]).toEqual(fresh.filter((address) => !first.mine.includes(address)));
    expect([...first.elsewhere.values()]).toEqual(Array.from({ length: 15 }, () => undefined));
    await first.release();
  });

  it('services with one list in another order share it: each counts the other (issue 50 CM12)', async () => {
    const store = await PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    onTestFinished(() => store.close());
    const key = 'sha256:00000000000000cc';
    const list = Array.from({ length: 40 }, (_, i) => freshAddress(39_800 + i)).sort();
    const scope = async () => ({ origin: 'https://api.energy.test', keyId: key });
    const claims = await store.claims({ note: () => undefined, everyMs: 60_000 });
    // This process's service registers with the list in order; its row is then copied as another service's.
    await (await claims(scope, list)).release();
    sql(
      `INSERT INTO energy.hosts (host, pid, key_id, every_ms, address_list, program, last_claim_at, last_claimed, last_skipped)
       SELECT 'another-host', pid, key_id, every_ms, address_list, program, now(), 0, 0 FROM energy.hosts
       WHERE key_id = '${key}'`,
    );
    // The same 40 addresses, reversed: two services share them, ceil(1.25 × 40 / 2) = 25 of the 30 never decided.
    const reversed = await claims(scope, [...list].reverse());
    expect(reversed.mine).toHaveLength(25);
    await reversed.release();
  });

  it('a service whose last claim is old but whose leases it renewed since (a slow cycle) is counted in the share', async () => {
    const store = await PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    onTestFinished(() => store.close());
    const key = 'sha256:00000000000000ce';
    const list = Array.from({ length: 40 }, (_, i) => freshAddress(39_850 + i));
    const scope = async () => ({ origin: 'https://api.energy.test', keyId: key });
    const claims = await store.claims({ note: () => undefined, everyMs: 60_000 });
    // This process's service registers with the list, deciding none; another service of the list claimed 3
    // minutes (3 intervals) ago and has renewed its leases since: a cycle still on its way, not a host gone.
    await (await claims(scope, list)).release([]);
    sql(
      `INSERT INTO energy.hosts (host, pid, key_id, every_ms, address_list, program, last_claim_at, last_claimed,
         last_skipped, last_seen_at)
       SELECT 'slow-host', pid, key_id, every_ms, address_list, program, now() - interval '3 minutes', 0, 0,
         now() - interval '10 seconds' FROM energy.hosts WHERE key_id = '${key}'`,
    );
    // Two services share the 40: ceil(1.25 × 40 / 2) = 25 (all 40, were the slow one not counted).
    const shared = await claims(scope, list);
    expect(shared.mine).toHaveLength(25);
    await shared.release();
  });

  it('a let-go that reaches the database only after an outage of three intervals leaves its service new: its next claim is a slice', async () => {
    const store = await PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    onTestFinished(() => store.close());
    const key = 'sha256:00000000000000cf';
    const list = Array.from({ length: 200 }, (_, i) => freshAddress(40_100 + i));
    const scope = async () => ({ origin: 'https://api.energy.test', keyId: key });
    const claims = await store.claims({ note: () => undefined, everyMs: 60_000 });
    // A claim (whole, or a first slice if this process is new), holding its addresses when the database goes.
    const before = await claims(scope, list);
    // The database away for 3 intervals: this service's last touch is 3 minutes old when its let-go arrives.
    sql(
      `UPDATE energy.hosts SET last_claim_at = now() - interval '3 minutes', last_seen_at = now() - interval '3 minutes'
       WHERE host = '${hostname()}' AND pid = ${process.pid}`,
    );
    await before.release([]);
    // Still new: a slice of an eighth (25), not its share of the whole list.
    const back = await claims(scope, list);
    expect(back.mine).toHaveLength(25);
    expect(back.more).toEqual({ taken: 25, share: 250 });
    await back.release([]);
  });

  it('two runs claiming the same 2,000 new addresses at one instant, twelve times: no claim fails, each address taken once', async () => {
    // Two processes' pools; each inserts the new rows in an order of its own, so they can wait on each other.
    const open = () => PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    const stores = [await open(), await open()];
    onTestFinished(() => Promise.all(stores.map((store) => store.close())).then(() => undefined));
    const scope = async () => ({ origin: 'https://api.energy.test', keyId: 'sha256:00000000000000ee' });
    const runs = await Promise.all(stores.map((store) => store.claims({ note: () => undefined })));
    for (let round = 0; round < 12; round++) {
      const list = Array.from({ length: 2_000 }, (_, i) => freshAddress(60_000 + round * 2_000 + i));
      const [a, b] = await Promise.all(runs.map((claim) => claim(scope, list)));
      const taken = [...a!.mine, ...b!.mine];
      expect(new Set(taken).size, `round ${round}`).toBe(2_000);
      expect(taken, `round ${round}`).toHaveLength(2_000);
      await Promise.all([a!.release(), b!.release()]);
    }
  }, 120_000);

  it('a service back from an outage counts the services live at its own last claim, and claims in slices', async () => {
    const store = await PgStore.open(readStateUrl(cluster.current.url), { PGPASSWORD: cluster.current.password });
    onTestFinished(() => store.close());
    const key = 'sha256:00000000000000dd';
    const list = Array.from({ length: 200 }, (_, i) => freshAddress(39_900 + i));
    const digest = createHash('sha256')
      .update([...list].sort().join('\n'))
      .digest('hex')
      .slice(0, 32);
    // This service and three others of its list were last in touch 3 minutes ago (3 intervals: the database was away).
    const row = (host: string, pid: number) =>
      `('${host}', ${pid}, '${key}', 60000, '${digest}', 'p', now() - interval '3 minutes', 50, 150, now() - interval '3 minutes')`;
    sql(
      `INSERT INTO energy.hosts (host, pid, key_id, every_ms, address_list, program, last_claim_at, last_claimed, last_skipped, last_seen_at)
       VALUES ${[row(hostname(), process.pid), row('b', 1), row('c', 1), row('d', 1)].join(', ')}
       ON CONFLICT (host, pid) DO UPDATE SET key_id = EXCLUDED.key_id, every_ms = EXCLUDED.every_ms,
         address_list = EXCLUDED.address_list, last_claim_at = EXCLUDED.last_claim_at, ended_at = NULL,
         last_seen_at = EXCLUDED.last_seen_at`,
    );
    const claims = await store.claims({ note: () => undefined, everyMs: 60_000 });
    const back = await claims(async () => ({ origin: 'https://api.energy.test', keyId: key }), list);
    // A slice of an eighth (25); its share for the cycle ceil(1.25 × 200 / 4) = 63, not the whole list.
    expect(back.mine).toHaveLength(25);
    expect(back.more).toEqual({ taken: 25, share: 63 });
    await back.release();
  });

  describe('short rentals', () => {
    // Orders deliver after 100 ms and an "hour" lasts 1 s: a need comes back every second or so.
    const fast = worldForSuite({ rateLimit: false, deliverAfterMs: 100, hourMs: 1_000 });
    const fastOrdersTo = (address: string) => fast.sandbox.orders().filter((order) => order.address === address);

    it('a running service that meets a newer schema fails its cycles with the reason and orders nothing, then goes on', async () => {
      const x = freshAddress(39_031);
      const service = fast.spawn(['ensure', ...rentalArgs(x, '--yes', '--json', '--every', '300ms')], {
        env: {
          ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
          ENERGY_TRON_NODE: fast.sandbox.url,
          ...cluster.current.env,
        },
      });
      onTestFinished(() => void service.child.kill('SIGKILL'));
      const cycles = () =>
        service
          .output()
          .stdout.split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { cycle: number; error?: { exit_code: number; message: string } });
      await until('the service bought for X', () => fastOrdersTo(x).length === 1, 20_000);
      sql(`INSERT INTO energy.schema_version (version, applied_by) VALUES (${SCHEMA_VERSION + 1}, 'a newer energy')`);
      try {
        // X's rental ends meanwhile: a real need, which the service must not buy under the newer schema.
        await until('the order ended', () => fastOrdersTo(x)[0]!.lifecycle_final, 20_000);
        const since = cycles().length;
        const failed = () =>
          cycles()
            .slice(since)
            .filter((cycle) => cycle.error !== undefined);
        await until('two cycles failed since X needs energy again', () => failed().length >= 2, 20_000);
        expect(failed()[0]!.error!.exit_code).toBe(11);
        expect(failed()[0]!.error!.message).toContain(
          `schema is at version ${SCHEMA_VERSION + 1}, written by a newer energy`,
        );
        expect(fastOrdersTo(x)).toHaveLength(1);
      } finally {
        sql(`DELETE FROM energy.schema_version WHERE version = ${SCHEMA_VERSION + 1}`);
      }
      await until('the service buys for the new need', () => fastOrdersTo(x).length === 2, 20_000);
      service.child.kill('SIGTERM');
      expect((await service.result).code).toBe(0);
    }, 90_000);

    it('a busy account: 12 earlier needs of X in the journal behind 1,000 newer orders, the next need bought with one request', async () => {
      const x = freshAddress(39_051);
      const keyId = keyIdOf(fast.sandbox.apiKey);
      expect((await fast.run(['order', 'pending'], { env: { ...cluster.current.env } })).code).toBe(0);
      // Twelve needs of X, each ordered under the id the one before derives, as a host of this fleet journaled them.
      fast.sandbox.seedTronAccount(x, {});
      const quote = await signedCall(fast, 'POST', '/v1/energy/quotes', {
        address: x,
        energy: 65_000,
        duration_hours: 1,
      });
      let anchor: Anchor = { periodStartMs: periodStart(x, Date.now()) };
      for (let need = 0; need < 12; need += 1) {
        const id = needId(x, anchor);
        const order = {
          client_request_id: id,
          address: x,
          energy: 65_000,
          duration_hours: 1,
          expected_total_trx: quote.json.total_trx,
        };
        const placed = await signedCall(fast, 'POST', '/v1/energy/orders', order);
        expect(placed.status).toBe(201);
        const outcome = JSON.stringify({ kind: 'created', at: new Date().toISOString(), order_id: placed.json.id });
        sql(
          `INSERT INTO energy.journal (origin, key_id, client_request_id, body, journaled_at, outcome, host, address)
           VALUES ('${fast.sandbox.url}', '${keyId}', '${id}', '${JSON.stringify(order)}', now(), '${outcome}', 'fleet-host', '${x}')`,
        );
        anchor = { orderId: placed.json.id as string };
      }
      await until('those orders ended', () => fastOrdersTo(x).every((order) => order.lifecycle_final), 20_000);
      const other = freshAddress(39_052);
      fast.sandbox.seedTronAccount(other, {});
      const small = await signedCall(fast, 'POST', '/v1/energy/quotes', {
        address: other,
        energy: 1000,
        duration_hours: 1,
      });
      for (let start = 0; start < 1000; start += 50)
        await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            signedCall(fast, 'POST', '/v1/energy/orders', {
              client_request_id: `busy-${start + i}`,
              address: other,
              energy: 1000,
              duration_hours: 1,
              expected_total_trx: small.json.total_trx,
            }),
          ),
        );
      const posts = fast.sandbox.requestCount('/v1/energy/orders', 'POST');
      const result = await fast.run(['ensure', ...rentalArgs(x, '--yes', '--json')], {
        env: {
          ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
          ENERGY_TRON_NODE: fast.sandbox.url,
          ...cluster.current.env,
        },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(items(result)[0]!.reason).toBe('bought');
      expect(fast.sandbox.requestCount('/v1/energy/orders', 'POST') - posts).toBe(1);
      expect(fastOrdersTo(x)).toHaveLength(13);
      expect(items(result)[0]!.bought).toMatchObject({ client_request_id: needId(x, anchor) });
    }, 90_000);
  });
});
