/**
 * The order list read by one service of a fleet an interval (issue 47 item 3), on a real PostgreSQL: the
 * services sharing a database take a lease (energy.order_list, schema migration 8) and one reads the list
 * and publishes it; the others read it from the database for their own addresses. Counted at the sandbox:
 * GET /v1/energy/orders (each reading here is one page) and the orders placed. An order placed beside the
 * fleet after a reading (a one-shot run naming the database) is still counted, from the shared journal; a
 * reading an interval old is refused; a key's reading nobody renewed for a day is pruned.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { freshAddress, httpGet, until, serviceCycles, type ServiceCycle } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { orderCreateArgs, rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();
const EVERY_MS = 2_000;

/** The cycles of `service` in which it decided `address` (not skipped as another host's), and how. */
const decided = (service: RunningCli, address: string) =>
  serviceCycles(service).flatMap((cycle: ServiceCycle) =>
    cycle.items.filter((item) => item.address === address && item.reason !== 'claimed_elsewhere'),
  );

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'the order list read by one host an interval', () => {
  // Orders stay on their way: an address bought for waits for it, short on chain, and its list is read.
  const world = worldForSuite({ rateLimit: false, deliverAfterMs: 3_600_000 });
  const cluster = clusterForSuite(bin);
  const sql = (query: string) => cluster.current.sql(query);
  const env = () => ({
    ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-list-')),
    ENERGY_TRON_NODE: world.sandbox.url,
    ...cluster.current.env,
  });
  const keyId = () => `sha256:${createHash('sha256').update(world.sandbox.apiKey).digest('hex').slice(0, 16)}`;
  const listGets = () => world.sandbox.requestCount('/v1/energy/orders', 'GET');
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

  function services(count: number, addresses: readonly string[]): RunningCli[] {
    return Array.from({ length: count }, () => {
      const args = rentalArgs(addresses, '--yes', '--json', '--every', `${EVERY_MS / 1000}s`);
      const service = world.spawn(['ensure', ...args], { env: env() });
      onTestFinished(() => void service.child.kill('SIGKILL'));
      return service;
    });
  }
  async function stop(running: RunningCli[]): Promise<void> {
    for (const service of running) service.child.kill('SIGTERM');
    for (const result of await Promise.all(running.map((service) => service.result)))
      expect(result.code, result.stderr).toBe(0);
  }
  /** Keeps the current reading young by hand (as if read a moment ago), so that every host uses it; stop() ends it. */
  function freezeReading(): { stop(): void } {
    const timer = setInterval(() => sql('UPDATE energy.order_list SET read_at = now() WHERE read_at IS NOT NULL'), 200);
    return { stop: () => clearInterval(timer) };
  }

  it('3 services on the same 6 waiting addresses: the list read at most once an interval (database clock), each need bought once; a day-old key pruned', async () => {
    const addresses = Array.from({ length: 6 }, (_, i) => freshAddress(47_700 + i));
    const schema = await world.run(['state', 'status', '--json'], { env: env() });
    expect(schema.code, schema.stderr).toBe(0);
    // Another key's reading nobody renewed for a day: gone at the next publishing.
    sql(`INSERT INTO energy.order_list (key_id, read_at, read_token) VALUES ('sha256:gone', now() - interval '1 day 1 minute', 'old');
         INSERT INTO energy.order_list_item VALUES ('sha256:gone', 'old', 0, 'T-gone', '{}')`);
    const running = services(3, addresses);
    await until('every address bought', () => addresses.every((address) => ordersTo(address).length > 0), 60_000);
    const cyclesBefore = running.map((service) => serviceCycles(service).length);
    const [startSeconds, readsBefore] = [Number(sql('SELECT extract(epoch FROM clock_timestamp())')), listGets()];
    await until(
      'six more cycles of each host',
      () => running.every((service, i) => serviceCycles(service).length >= cyclesBefore[i]! + 6),
      60_000,
    );
    const [endSeconds, reads] = [Number(sql('SELECT extract(epoch FROM clock_timestamp())')), listGets() - readsBefore];
    const cycles = running.reduce((sum, service, i) => sum + serviceCycles(service).length - cyclesBefore[i]!, 0);
    // Readings begin at least an interval apart on the database's clock: at most one per interval of the
    // window, and one begun just before it; each host's every cycle reading it would be about 3 an interval.
    const intervals = Math.floor(((endSeconds - startSeconds) * 1000) / EVERY_MS);
    expect(reads, `${reads} list readings in ${intervals} intervals, ${cycles} cycles`).toBeLessThanOrEqual(
      intervals + 2,
    );
    expect(cycles).toBeGreaterThanOrEqual(18);
    for (const address of addresses) expect(ordersTo(address)).toHaveLength(1);
    expect(sql("SELECT count(*) FROM energy.order_list WHERE key_id = 'sha256:gone'")).toBe('0');
    expect(sql("SELECT count(*) FROM energy.order_list_item WHERE key_id = 'sha256:gone'")).toBe('0');
    // The readings' rows: this key's current one alone, its orders filed by address (no secret: the key's id).
    expect(sql('SELECT count(DISTINCT token) FROM energy.order_list_item')).toBe('1');
    expect(sql('SELECT key_id FROM energy.order_list')).toBe(keyId());
    await stop(running);
  }, 150_000);

  it('an order a one-shot run placed beside the fleet after the reading the hosts use is counted on its way: not bought again', async () => {
    const waiting = freshAddress(47_720);
    const x = freshAddress(47_721);
    world.sandbox.seedTronAccount(x, { activated: true, energy: 65_000 });
    const running = services(2, [waiting, x]);
    await until(
      'a reading published',
      () =>
        ordersTo(waiting).length === 1 &&
        sql('SELECT count(*) FROM energy.order_list WHERE read_at IS NOT NULL') === '1',
      60_000,
    );
    await until(
      'x decided: enough',
      () => running.some((service) => decided(service, x).some((item) => item.reason === 'enough')),
      30_000,
    );
    const freeze = freezeReading();
    try {
      // Beside the fleet, naming the same database: journaled there, placed, then x's chain shows it short.
      const placed = await world.run([...orderCreateArgs(x, '--yes', '--json')], { env: env() });
      expect(placed.code, placed.stderr).toBe(0);
      const readsBefore = listGets();
      const [order] = ordersTo(x);
      // The reading the hosts use was taken before that order: it does not hold it.
      expect(sql(`SELECT count(*) FROM energy.order_list_item WHERE body->>'id' = '${order!.id}'`)).toBe('0');
      world.sandbox.seedTronAccount(x, { activated: true, energy: 0 });
      const counted = running.map((service) => decided(service, x).length);
      await until(
        'x decided twice more',
        () => running.reduce((sum, service, i) => sum + decided(service, x).length - counted[i]!, 0) >= 2,
        30_000,
      );
      const after = running.flatMap((service, i) => decided(service, x).slice(counted[i]!));
      for (const item of after) expect(item).toMatchObject({ reason: 'in_flight', to_buy: 0 });
      expect(ordersTo(x)).toHaveLength(1);
      // The reading the hosts used was the frozen one: no host read the list meanwhile.
      expect(listGets() - readsBefore).toBe(0);
    } finally {
      freeze.stop();
    }
    await stop(running);
  }, 120_000);

  it('a reading an interval old is refused: the order it shows on its way no longer holds a purchase back', async () => {
    const y = freshAddress(47_730);
    const schema = await world.run(['state', 'status', '--json'], { env: env() });
    expect(schema.code, schema.stderr).toBe(0);
    world.sandbox.seedTronAccount(y, { activated: true, energy: 0 });
    const unix = (JSON.parse((await httpGet(`${world.sandbox.url}/v1/time`)).body) as { unix_time: number }).unix_time;
    // A reading by hand, as a host would publish it: an order on its way to y that the server does not have.
    const ghost = {
      id: randomUUID(),
      client_request_id: 'ghost',
      address: y,
      energy: 65_000,
      duration_hours: 1,
      total_trx: '3.700000',
      status: 'pending',
      lifecycle_final: false,
      delivery_final: false,
      created_at: unix,
      updated_at: unix,
      failure: null,
    };
    sql(`INSERT INTO energy.order_list (key_id, read_at, read_token, reach_ms, complete, oldest_read_ms, out_of_order)
           VALUES ('${keyId()}', now(), 'by-hand', 0, true, ${unix * 1000}, false)
           ON CONFLICT (key_id) DO UPDATE SET read_at = now(), read_token = 'by-hand', lease_token = NULL,
             lease_until = NULL, reach_ms = 0, complete = true, oldest_read_ms = ${unix * 1000}, out_of_order = false;
         INSERT INTO energy.order_list_item VALUES ('${keyId()}', 'by-hand', 0, '${y}', '${JSON.stringify(ghost)}')`);
    const freeze = freezeReading();
    const [service] = services(1, [y]);
    try {
      // While young, the reading is what the host counts: y waits for the order it shows.
      await until('y decided twice', () => decided(service!, y).length >= 2, 30_000);
      for (const item of decided(service!, y)) expect(item).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
      expect(ordersTo(y)).toHaveLength(0);
    } finally {
      freeze.stop();
    }
    // Left to age: past an interval it is refused, the host reads the list itself, and y is bought, once.
    await until('y bought', () => ordersTo(y).length > 0, 30_000);
    await until(
      'y decided in flight after',
      () => decided(service!, y).some((item) => item.reason === 'bought'),
      30_000,
    );
    expect(ordersTo(y)).toHaveLength(1);
    expect(sql(`SELECT count(*) FROM energy.order_list_item WHERE token = 'by-hand'`)).toBe('0');
    await stop([service!]);
  }, 120_000);
});
