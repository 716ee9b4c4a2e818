/**
 * Two services on one database, each scraped as Prometheus would: a host exports an address's series
 * (`energy_address_*`) only for the addresses its last cycle decided, never a frozen reading of one another
 * host decides ("available 0" for a healthy wallet). Read between two cycles of the host, so that what its
 * last cycle said and what its /metrics says are of the same cycle.
 */
import { expect, it } from 'vitest';
import { freshAddress, httpGet, metricsUrl, until, serviceCycles as cyclesOf } from '../helpers/e2e.js';
import { fleetServices, stopFleet } from '../helpers/fleet-hosts.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();

/** The addresses a scrape has `energy_address_available_energy` for. */
const exported = (body: string): string[] =>
  [...body.matchAll(/^energy_address_available_energy\{address="(\w+)"\}/gm)].map((match) => match[1]!).sort();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'gauges across a fleet', () => {
  // Orders stay on their way: the addresses stand once bought, and each interval one host decides each.
  const world = worldForSuite({ rateLimit: false, deliverAfterMs: 3_600_000 });
  const cluster = clusterForSuite(bin);

  it("two services on one database: each exports an address's series only while its last cycle decided it", async () => {
    const addresses = Array.from({ length: 8 }, (_, i) => freshAddress(44_700 + i));
    const args = rentalArgs(addresses, '--yes', '--json', '--every', '2s', '--metrics', '127.0.0.1:0');
    const hosts = fleetServices(world, cluster.current, 2, args);
    const urls = await Promise.all(hosts.map((host) => metricsUrl(host)));
    // A few cycles each, so that both have decided addresses and let others go to the other host.
    await until('each host ran four cycles', () => hosts.every((host) => cyclesOf(host).length >= 4), 60_000);
    let elsewhere = 0;
    for (const [index, host] of hosts.entries()) {
      // The scrape and the last cycle's line of the same cycle: read again if a cycle ended in between.
      const { seen, decided } = await until(`host ${index}'s scrape between two cycles`, async () => {
        const before = cyclesOf(host).length;
        const { body } = await httpGet(`${urls[index]}/metrics`);
        const cycles = cyclesOf(host);
        if (cycles.length !== before) return undefined;
        const items = cycles.at(-1)!.items;
        elsewhere += items.filter((item) => item.reason === 'claimed_elsewhere').length;
        const mine = items.filter((item) => item.reason !== 'claimed_elsewhere').map((item) => item.address);
        return { seen: exported(body), decided: mine.sort() };
      });
      expect(seen, `host ${index}`).toEqual(decided);
    }
    // The test is about something: the hosts did share the addresses out (else every host decides all).
    expect(elsewhere).toBeGreaterThan(0);
    await stopFleet(hosts);
    // Each address bought once across the fleet.
    const orders = world.sandbox.orders().filter((order) => addresses.includes(order.address));
    expect(orders).toHaveLength(addresses.length);
  }, 120_000);
});
