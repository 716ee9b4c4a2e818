/**
 * Order GETs once for the fleet (issue 47 item 3): an order the list does not show, journaled in the shared
 * database, is followed by id by the first host that decides its address; once it has ended no other host asks
 * for it again (energy.final_order, schema migration 7). Counted at the sandbox: GET /v1/energy/orders/{id}.
 * A row is kept 7 days. A database at 6 comes to 11, and a 7, 8, 9, 10 and 11 made twice (the tables and columns
 * there, their version rows not) is no error.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { startApiFront, type ApiFront } from '../helpers/api-front.js';
import { freshAddress } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'order GETs once for the fleet', () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);
  let front: ApiFront | undefined;
  afterAll(async () => front?.close());

  const host = (url = cluster.current.url) => ({
    ...cluster.current.env,
    ENERGY_STATE_URL: url,
    ENERGY_TRON_NODE: world.sandbox.url,
    ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-final-')),
  });

  it("X's order placed by one host, then hidden from the list and ended: 3 more hosts' dry runs GET it 1 time in all, not 3", async () => {
    const address = freshAddress(47_401);
    world.sandbox.seedTronAccount(address, { activated: true });
    let hidden = false;
    // The list no longer reaches X's order (a busy account), and it ended (failed, undelivered) meanwhile.
    front = await startApiFront(world.sandbox.url, {
      listed: (order) => !hidden || order.address !== address,
      order: (order: Order) =>
        hidden && order.address === address
          ? { ...order, status: 'failed', lifecycle_final: true, delivery_final: false }
          : order,
    });
    const env = (extra = host()) => ({ ...extra, ENERGY_BASE_URL: front!.url });
    const placed = await world.run(['ensure', ...rentalArgs(address, '--yes', '--json')], { env: env() });
    expect(placed.code, placed.stderr).toBe(0);
    const [order] = world.sandbox.orders().filter((candidate) => candidate.address === address);
    expect(order).toBeDefined();
    hidden = true;
    // A row past its 7 days: the next host that tells the fleet of an ended order prunes it.
    cluster.current.sql(
      "INSERT INTO energy.final_order (key_id, order_id, known_at) VALUES ('sha256:0', 'old', now() - interval '7 days 1 minute')",
    );
    const gets = () => world.sandbox.requestCount(`/v1/energy/orders/${order!.id}`, 'GET');
    const before = gets();
    for (let n = 0; n < 3; n += 1) {
      // A target above the one order's: short, and what is on its way to it is read.
      const args = ['ensure', address, '--energy', '130000', '--hours', '1', '--dry-run', '--json'];
      // The next interval: the address is due again, and another host decides it.
      cluster.current.sql('DELETE FROM energy.claims');
      const result = await world.run(args, { env: env() });
      expect(result.code, result.stderr).toBe(0);
      // Decided by this host: short, the ended order counted as nothing on its way.
      const [item] = (JSON.parse(result.stdout) as { items: { address: string; in_flight: number; to_buy: number }[] })
        .items;
      expect(item).toMatchObject({ address, in_flight: 0 });
      expect(item!.to_buy).toBeGreaterThan(0);
    }
    expect(gets() - before).toBe(1);
    expect(cluster.current.sql('SELECT order_id FROM energy.final_order')).toBe(order!.id);
    expect(world.sandbox.orders().filter((candidate) => candidate.address === address)).toHaveLength(1);
  }, 90_000);

  it('a database at 6 comes to 11; the tables and columns there already without their version rows are no error', async () => {
    cluster.current.sql('CREATE DATABASE at_six');
    const url = cluster.current.url.replace('/postgres?', '/at_six?');
    const sql = (query: string) => cluster.current.sql(query, 'at_six');
    const status = () => world.run(['state', 'status', '--json'], { env: host(url) });
    expect((await status()).code).toBe(0);
    sql(
      'DELETE FROM energy.schema_version WHERE version >= 7; DROP TABLE energy.final_order, energy.order_list, energy.order_list_item; ALTER TABLE energy.hosts DROP COLUMN last_seen_at',
    );
    expect(sql('SELECT max(version) FROM energy.schema_version')).toBe('6');
    const upgraded = await status();
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect(sql('SELECT max(version) FROM energy.schema_version')).toBe('11');
    expect(sql("SELECT to_regclass('energy.final_order') IS NOT NULL")).toBe('t');
    expect(sql("SELECT to_regclass('energy.order_list_item') IS NOT NULL")).toBe('t');
    expect(
      sql(
        "SELECT count(*) FROM pg_attribute WHERE attrelid = 'energy.order_list'::regclass AND attname IN ('offer', 'offer_token')",
      ),
    ).toBe('2');
    expect(
      sql("SELECT count(*) FROM pg_attribute WHERE attrelid = 'energy.hosts'::regclass AND attname = 'last_seen_at'"),
    ).toBe('1');
    sql('DELETE FROM energy.schema_version WHERE version >= 7');
    const again = await status();
    expect(again.code, again.stderr).toBe(0);
    expect(sql('SELECT max(version) FROM energy.schema_version')).toBe('11');
  }, 60_000);
});
