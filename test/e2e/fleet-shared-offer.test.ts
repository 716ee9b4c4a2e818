/**
 * The offer read with the fleet's reading of the order list (issue 47 item 3), on a real PostgreSQL: the host
 * that takes the reading reads `GET /v1/energy/options` itself and publishes it beside the orders
 * (energy.order_list.offer, schema migration 9); the other services use that offer for as long as they use the
 * reading, and read none. Counted at the sandbox (options reads, list pages) and seen in what is ordered: an
 * offer stored by hand with a portion of 7,000 sizes a 65,000 shortfall to 70,000 (the sandbox's own portion,
 * 1,000, would order 65,000); an offer that is not one is refused and the offer read from the API. Hosts new to
 * the fleet decide their first cycle in claim slices: the server's clock is read once a host that cycle, not once
 * a slice, and the offer once for the fleet.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { freshAddress, httpGet, until, serviceCycles } from '../helpers/e2e.js';
import { fleetServices, stopFleet } from '../helpers/fleet-hosts.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();
const EVERY_MS = 2_000;

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, "the offer read with the fleet's reading", () => {
  // Orders stay on their way: an address bought for waits for it, short on chain, and each cycle plans it.
  const world = worldForSuite({ rateLimit: false, deliverAfterMs: 3_600_000 });
  const cluster = clusterForSuite(bin);
  const sql = (query: string) => cluster.current.sql(query);
  const keyId = () => `sha256:${createHash('sha256').update(world.sandbox.apiKey).digest('hex').slice(0, 16)}`;
  const optionsGets = () => world.sandbox.requestCount('/v1/energy/options', 'GET');
  const listGets = () => world.sandbox.requestCount('/v1/energy/orders', 'GET');
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
  const services = (count: number, addresses: readonly string[]) =>
    fleetServices(
      world,
      cluster.current,
      count,
      rentalArgs(addresses, '--yes', '--json', '--every', `${EVERY_MS / 1000}s`),
    );

  it('3 services on the same 6 waiting addresses: the offer read about once an interval for the fleet, by the host that reads the list', async () => {
    const addresses = Array.from({ length: 6 }, (_, i) => freshAddress(47_900 + i));
    const running = services(3, addresses);
    await until('every address bought', () => addresses.every((address) => ordersTo(address).length > 0), 60_000);
    const cyclesBefore = running.map((service) => serviceCycles(service).length);
    const [startSeconds, optionsBefore, listBefore] = [
      Number(sql('SELECT extract(epoch FROM clock_timestamp())')),
      optionsGets(),
      listGets(),
    ];
    await until(
      'six more cycles of each host',
      () => running.every((service, i) => serviceCycles(service).length >= cyclesBefore[i]! + 6),
      60_000,
    );
    const endSeconds = Number(sql('SELECT extract(epoch FROM clock_timestamp())'));
    const [options, readings] = [optionsGets() - optionsBefore, listGets() - listBefore];
    const cycles = running.reduce((sum, service, i) => sum + serviceCycles(service).length - cyclesBefore[i]!, 0);
    const intervals = Math.floor(((endSeconds - startSeconds) * 1000) / EVERY_MS);
    // Each host's every cycle reading it, as before, would be one a cycle: 18 or more here.
    expect(cycles).toBeGreaterThanOrEqual(18);
    expect(options, `${options} options reads in ${intervals} intervals, ${cycles} cycles`).toBeLessThanOrEqual(
      intervals + 2,
    );
    // Read by the host that reads the list (one page a reading here), never by the others.
    expect(options, `${options} options reads, ${readings} readings of the list`).toBeLessThanOrEqual(readings);
    expect(options).toBeGreaterThanOrEqual(1);
    // The current reading carries the sandbox's offer, tied to that reading.
    expect(
      sql(`SELECT offer->>'energy_per_portion', offer->>'max_energy', offer->>'intake_enabled', offer_token = read_token
                  FROM energy.order_list WHERE key_id = '${keyId()}'`),
    ).toBe('1000|5000000|true|t');
    for (const address of addresses) expect(ordersTo(address)).toHaveLength(1);
    await stopFleet(running);
  }, 150_000);

  it("a host sizes by the reading's offer and reads none; an offer that is not one is refused, and read from the API", async () => {
    const [z, w] = [freshAddress(47_910), freshAddress(47_911)];
    for (const address of [z, w]) world.sandbox.seedTronAccount(address, { activated: true, energy: 0 });
    const schema = await world.run(['state', 'status', '--json'], { env: cluster.current.env });
    expect(schema.code, schema.stderr).toBe(0);
    const unix = (JSON.parse((await httpGet(`${world.sandbox.url}/v1/time`)).body) as { unix_time: number }).unix_time;
    // A reading by hand, as a host publishes it: no orders, and an offer whose portion is 7,000 (a field added).
    const offer = { energy_per_portion: 7_000, max_energy: 5_000_000, duration_hours: [1, '24'], intake_enabled: true };
    const publish = (body: object) =>
      sql(`INSERT INTO energy.order_list (key_id, read_at, read_token, reach_ms, complete, oldest_read_ms, out_of_order, offer, offer_token)
             VALUES ('${keyId()}', now(), 'by-hand', 0, true, ${unix * 1000}, false, '${JSON.stringify(body)}', 'by-hand')
             ON CONFLICT (key_id) DO UPDATE SET read_at = now(), read_token = 'by-hand', lease_token = NULL,
               lease_until = NULL, reach_ms = 0, complete = true, oldest_read_ms = ${unix * 1000}, out_of_order = false,
               offer = excluded.offer, offer_token = 'by-hand';
           DELETE FROM energy.order_list_item WHERE key_id = '${keyId()}'`);
    // Kept young by hand, so that the hosts use it and do not read the list themselves.
    const keepYoung = () => {
      const timer = setInterval(
        () => sql("UPDATE energy.order_list SET read_at = now() WHERE read_token = 'by-hand'"),
        200,
      );
      return () => clearInterval(timer);
    };
    publish({ ...offer, added_later: 'kept' });
    let stop = keepYoung();
    const optionsBefore = optionsGets();
    try {
      const [host] = services(1, [z]);
      await until('z bought', () => ordersTo(z).length > 0, 30_000);
      expect(ordersTo(z).map((order) => order.energy)).toEqual([70_000]);
      expect(optionsGets() - optionsBefore).toBe(0);
      await stopFleet([host!]);
    } finally {
      stop();
    }
    // Not an offer (a portion as a string): refused, read from the API, and w sized by the sandbox's 1,000.
    publish({ ...offer, energy_per_portion: '7000' });
    stop = keepYoung();
    try {
      const [host] = services(1, [w]);
      await until('w bought', () => ordersTo(w).length > 0, 30_000);
      expect(ordersTo(w).map((order) => order.energy)).toEqual([65_000]);
      expect(optionsGets() - optionsBefore).toBeGreaterThanOrEqual(1);
      await stopFleet([host!]);
    } finally {
      stop();
    }
  }, 120_000);

  it("4 hosts new to the fleet decide their first cycle's 100 short addresses in slices: the server's clock read once a host, the offer once", async () => {
    const addresses = Array.from({ length: 100 }, (_, i) => freshAddress(47_930 + i));
    const schema = await world.run(['state', 'status', '--json'], { env: cluster.current.env });
    expect(schema.code, schema.stderr).toBe(0);
    // No reading yet (an earlier test's is younger than these hosts' 10 minutes): one of them reads the list.
    sql('DELETE FROM energy.order_list_item; DELETE FROM energy.order_list');
    const registered = () => Number(sql('SELECT count(*) FROM energy.hosts WHERE ended_at IS NULL AND every_ms > 0'));
    const [timesBefore, optionsBefore] = [world.sandbox.requestCount('/v1/time', 'GET'), optionsGets()];
    // Every quote waits until all 4 have claimed a first slice, so that each takes its share in slices (13 at a
    // time of a share of 25: two or more slices a host, each planned apart). A long interval: one cycle each.
    world.sandbox.inject({ kind: 'hold', times: 100, match: { path: '/v1/energy/quotes' } });
    const hosts = fleetServices(world, cluster.current, 4, rentalArgs(addresses, '--yes', '--json', '--every', '10m'));
    await until('every host claimed a first slice', () => registered() === 4, 60_000);
    world.sandbox.releaseHeld();
    await until('the first cycles', () => hosts.every((host) => serviceCycles(host).length >= 1), 60_000);
    expect(world.sandbox.orders().filter((order) => addresses.includes(order.address))).toHaveLength(100);
    expect(world.sandbox.requestCount('/v1/time', 'GET') - timesBefore).toBe(4);
    expect(optionsGets() - optionsBefore).toBe(1);
    await stopFleet(hosts);
  }, 120_000);

  it('a reading published by an energy at schema 8 (no offer of its own) does not carry the last one on', async () => {
    const v = freshAddress(47_920);
    world.sandbox.seedTronAccount(v, { activated: true, energy: 0 });
    const unix = (JSON.parse((await httpGet(`${world.sandbox.url}/v1/time`)).body) as { unix_time: number }).unix_time;
    // The offer of an earlier reading, and a newer reading written as schema 8 writes it (offer untouched).
    const offer = { energy_per_portion: 7_000, max_energy: 5_000_000, duration_hours: [1], intake_enabled: true };
    sql(`UPDATE energy.order_list SET offer = '${JSON.stringify(offer)}', offer_token = 'earlier', read_at = now(),
           read_token = 'at-eight', lease_token = NULL, lease_until = NULL, reach_ms = 0, complete = true,
           oldest_read_ms = ${unix * 1000}, out_of_order = false WHERE key_id = '${keyId()}';
         DELETE FROM energy.order_list_item WHERE key_id = '${keyId()}'`);
    const timer = setInterval(
      () => sql("UPDATE energy.order_list SET read_at = now() WHERE read_token = 'at-eight'"),
      200,
    );
    const optionsBefore = optionsGets();
    try {
      const [host] = services(1, [v]);
      await until('v bought', () => ordersTo(v).length > 0, 30_000);
      expect(ordersTo(v).map((order) => order.energy)).toEqual([65_000]);
      expect(optionsGets() - optionsBefore).toBeGreaterThanOrEqual(1);
      await stopFleet([host!]);
    } finally {
      clearInterval(timer);
    }
  }, 120_000);
});
