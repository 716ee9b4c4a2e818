/**
 * A fleet's first cycle divides (issue 47 item 2), on a real PostgreSQL: services that start together on the
 * same short addresses, and services back from a database outage, each take about their share of what is due
 * (a host new to the fleet claims in slices, its share read again at each one), not the first host all of it.
 * Orders are counted at the sandbox, by the host whose first cycle placed them. A host whose cycle was merely
 * slow (it outlasted two intervals, its leases renewed meanwhile) is not new: its next cycle claims at once, as
 * the server's statement log shows (log_statement = all, with each statement's parameters).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { freshAddress, serviceCycles as cyclesOf, type ServiceCycle, until } from '../helpers/e2e.js';
import { fleetServices, stopFleet as stop, untilHosts } from '../helpers/fleet-hosts.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();
const HOSTS = 4;

const boughtIn = (cycle: ServiceCycle | undefined) =>
  cycle?.items.filter((item) => item.reason === 'bought').length ?? 0;

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, "a fleet's first cycle", () => {
  // Orders stay on their way: an address bought for is not short again during the test.
  const world = worldForSuite({ rateLimit: false, deliverAfterMs: 3_600_000 });
  const cluster = clusterForSuite(bin);

  /** Services with a host row: each has claimed once (nothing yet before the first host's migrations). */
  function hostsRegistered(): number {
    if (cluster.current.sql("SELECT to_regclass('energy.hosts') IS NOT NULL") !== 't') return 0;
    return Number(cluster.current.sql('SELECT count(*) FROM energy.hosts WHERE ended_at IS NULL AND every_ms > 0'));
  }

  function services(addresses: readonly string[], every: string): RunningCli[] {
    return fleetServices(world, cluster.current, HOSTS, rentalArgs(addresses, '--yes', '--json', '--every', every));
  }

  it('4 services start together on the same 100 short addresses: none places over 1.5× its share, each address once', async () => {
    const addresses = Array.from({ length: 100 }, (_, i) => freshAddress(47_200 + i));
    // Every quote waits until all 4 hosts have claimed their first slice: they start together here however
    // far apart a loaded machine spawns them, and the share each reads at its next slice counts all four.
    world.sandbox.inject({ kind: 'hold', times: 100, match: { path: '/v1/energy/quotes' } });
    // Failed or not, the gate is gone before the next test: its quotes are not held.
    onTestFinished(() => {
      world.sandbox.clearFaults();
      world.sandbox.releaseHeld();
    });
    const running = services(addresses, '1m');
    await untilHosts('every host claimed a first slice', running, () => hostsRegistered() === HOSTS, 60_000);
    world.sandbox.releaseHeld();
    await untilHosts(
      'every host ended its first cycle',
      running,
      () => running.every((s) => cyclesOf(s).length > 0),
      60_000,
    );
    const byHost = running.map((service) => boughtIn(cyclesOf(service)[0]));
    // A share is 25: no host over 37; together every address, each once.
    expect(Math.max(...byHost), `orders by host: ${byHost.join(' / ')}`).toBeLessThanOrEqual(37);
    expect(byHost.reduce((sum, n) => sum + n, 0)).toBe(100);
    const orders = world.sandbox.orders().filter((order) => addresses.includes(order.address));
    expect(new Set(orders.map((order) => order.address)).size).toBe(100);
    expect(orders).toHaveLength(100);
    await stop(running);
  }, 120_000);

  it("a lone service whose first cycle outlasts its interval reports each order it bought, not the address's next reading", async () => {
    const addresses = Array.from({ length: 5 }, (_, i) => freshAddress(47_600 + i));
    // A new host claims in slices up to 1.25 × its list: its last slice takes again an address its first one
    // bought for once that is due again, which a first quote held for 1.5 intervals makes sure of.
    world.sandbox.inject({ kind: 'delay', ms: 1_500, times: 1, match: { path: '/v1/energy/quotes' } });
    const [service] = fleetServices(
      world,
      cluster.current,
      1,
      rentalArgs(addresses, '--yes', '--json', '--every', '1s'),
    );
    await untilHosts('the first cycle ended', [service!], () => cyclesOf(service!).length > 0, 60_000);
    // One item an address, each the order its cycle bought (an address read again showed it in flight, unfollowed).
    const reasons = cyclesOf(service!)[0]!.items.map((item) => item.reason);
    expect(reasons).toEqual(['bought', 'bought', 'bought', 'bought', 'bought']);
    expect(world.sandbox.orders().filter((order) => addresses.includes(order.address))).toHaveLength(5);
    await stop([service!]);
  }, 90_000);

  it('a service whose cycle outlasts two intervals is not new to the fleet: its next cycles claim their share at once, not in slices', async () => {
    const addresses = Array.from({ length: 40 }, (_, i) => freshAddress(47_800 + i));
    const [service] = fleetServices(
      world,
      cluster.current,
      1,
      rentalArgs(addresses, '--yes', '--json', '--every', '2s'),
    );
    await untilHosts('the first cycle ended', [service!], () => cyclesOf(service!).length > 0, 60_000);
    const sql = (query: string) => cluster.current.sql(query);
    const log = join(cluster.current.socketDir, 'log');
    sql("ALTER SYSTEM SET log_statement = 'all'");
    sql("ALTER SYSTEM SET log_line_prefix = '%a|'");
    sql('SELECT pg_reload_conf()');
    onTestFinished(() => {
      world.sandbox.clearFaults();
      world.sandbox.releaseHeld();
      sql('ALTER SYSTEM RESET log_statement');
      sql('ALTER SYSTEM RESET log_line_prefix');
      sql('SELECT pg_reload_conf()');
    });
    // In effect once a new session has it: the server has read it again and told every session so.
    await until('log_statement in effect', () => (sql('SHOW log_statement') === 'all' ? true : undefined));
    const before = readFileSync(log, 'utf8').length;
    const seen = cyclesOf(service!).length;
    // The next cycle's first chain read is held until, on the database's clock, its claim is 2.5 intervals old.
    world.sandbox.inject({ kind: 'hold', times: 1, match: { path: '/wallet/getaccountresource' } });
    await untilHosts(
      'a cycle outlasted two intervals',
      [service!],
      () =>
        sql(
          `SELECT count(*) FROM energy.hosts WHERE pid = ${service!.child.pid} AND ended_at IS NULL AND last_claim_at < now() - interval '5 seconds'`,
        ) === '1',
      60_000,
    );
    world.sandbox.releaseHeld();
    await untilHosts('two cycles after it', [service!], () => cyclesOf(service!).length >= seen + 3, 60_000);
    // Each claim's $11: whether it was a later slice of its cycle (a host new to the fleet claims an eighth at once).
    const slices = [
      ...readFileSync(log, 'utf8')
        .slice(before)
        .matchAll(/FROM energy\.schema_version\),[^]*?\|DETAIL: {2}parameters: [^\n]*?\$11 = '(\w+)'/g),
    ].map((match) => match[1]);
    // The slow cycle's claim, and at least two after it: each one whole (40 addresses at once, a share of 50).
    expect(slices.length).toBeGreaterThanOrEqual(3);
    expect(
      slices.filter((later) => later !== 'f'),
      slices.join(' '),
    ).toEqual([]);
    await stop([service!]);
  }, 120_000);

  it('after a database outage of three intervals, the hosts back share what is due again', async () => {
    const addresses = Array.from({ length: 100 }, (_, i) => freshAddress(47_400 + i));
    const running = services(addresses, '2s');
    await untilHosts(
      'every address bought',
      running,
      () => world.sandbox.orders().filter((order) => addresses.includes(order.address)).length === 100,
      60_000,
    );
    cluster.current.stop();
    const during = running.map((service) => cyclesOf(service).length);
    try {
      // Three failed cycles each: more than two intervals without a claim, so every host is back as new.
      await untilHosts(
        'each host failed cycles',
        running,
        () => running.every((s, i) => cyclesOf(s).length > during[i]! + 2),
        30_000,
      );
    } finally {
      cluster.current.start();
    }
    // Every address is due again (decided before the outage, longer ago than an interval).
    const back = running.map((service) => cyclesOf(service).length);
    const firstBack = (service: RunningCli, i: number) =>
      cyclesOf(service)
        .slice(back[i])
        .find((c) => c.items.length > 0);
    await untilHosts(
      'each host ended a cycle since',
      running,
      () => running.every((s, i) => firstBack(s, i) !== undefined),
      60_000,
    );
    // Of each host's first cycle back: the addresses it read (not left to others), at most 1.5 × 25.
    const decidedBy = running.map(
      (service, i) => firstBack(service, i)!.items.filter((item) => item.reason !== 'claimed_elsewhere').length,
    );
    expect(Math.max(...decidedBy), `addresses decided by host: ${decidedBy.join(' / ')}`).toBeLessThanOrEqual(37);
    // Nothing bought twice: each address's order still on its way.
    expect(world.sandbox.orders().filter((order) => addresses.includes(order.address))).toHaveLength(100);
    await stop(running);
  }, 150_000);
});
