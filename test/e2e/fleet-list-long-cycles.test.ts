/**
 * The fleet's reading of the order list where the services' cycles outlast their interval (issue 47 item 3:
 * one host an interval reads the list), on a real PostgreSQL. Each cycle here ends with a balance read
 * (`--min-balance`) that the sandbox answers 2-3.2 s late, so that a cycle takes about nine of its 300 ms
 * intervals, as on a loaded machine. A host alone then reads the list once a cycle; the fleet's hosts, whose
 * cycles are not aligned, must not read it more often between them than one of them cycles. Counted at the
 * sandbox: GET /v1/energy/orders (each reading here is one page) and the orders placed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { freshAddress, until, serviceCycles } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();
/** The services' interval, and how late the sandbox answers each cycle's balance read. */
const EVERY = '300ms';
const LATE_MS = [2_000, 3_200, 2_600];

describeWhere(
  'PostgreSQL (initdb, pg_ctl)',
  bin !== undefined,
  'the fleet reading the list, cycles longer than the interval',
  () => {
    // Orders stay on their way: an address bought for waits for it, short on chain, and its list is read.
    const world = worldForSuite({ rateLimit: false, deliverAfterMs: 3_600_000 });
    const cluster = clusterForSuite(bin);
    const listGets = () => world.sandbox.requestCount('/v1/energy/orders', 'GET');
    const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

    function service(addresses: readonly string[]): RunningCli {
      const args = rentalArgs(addresses, '--yes', '--json', '--every', EVERY, '--min-balance', '1');
      const env = {
        ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-long-')),
        ENERGY_TRON_NODE: world.sandbox.url,
        ...cluster.current.env,
      };
      const running = world.spawn(['ensure', ...args], { env });
      onTestFinished(() => void running.child.kill('SIGKILL'));
      return running;
    }

    it('3 services whose cycles take about 9 intervals: the list read no more often than one host cycles, each need bought once', async () => {
      const addresses = Array.from({ length: 6 }, (_, i) => freshAddress(47_760 + i));
      onTestFinished(() => world.sandbox.clearFaults());
      // Balance reads answered late by turns, so that the hosts' cycles are of unequal lengths: cycles of one
      // length started together stay aligned, and one reading would serve them all whatever the rule.
      for (let turn = 0; turn < 300; turn += 1)
        world.sandbox.inject({ kind: 'delay', ms: LATE_MS[turn % LATE_MS.length]!, match: { path: '/v1/balance' } });
      const running = Array.from({ length: 3 }, () => service(addresses));
      await until('every address bought', () => addresses.every((address) => ordersTo(address).length > 0), 60_000);
      const cycles = () => running.map((service) => serviceCycles(service).length);
      // Two slow cycles each first: from then on each host knows its cycles are long.
      const slow = cycles();
      await until('two slow cycles of each host', () => cycles().every((n, i) => n >= slow[i]! + 2), 60_000);
      const [before, readsBefore] = [cycles(), listGets()];
      await until('six more cycles of each host', () => cycles().every((n, i) => n >= before[i]! + 6), 90_000);
      const reads = listGets() - readsBefore;
      const ran = cycles().map((n, i) => n - before[i]!);
      // One host alone reads once a cycle; the hosts that decide something, each reading once its own interval
      // has passed, would read about as often as each of them cycles (12 against 6, with the rule by the interval
      // alone). Between them they may read as often as the host that cycled most, and once more
      // for a reading begun before the count.
      expect(reads, `${reads} list readings while the hosts ran ${ran.join(', ')} cycles`).toBeLessThanOrEqual(
        Math.max(...ran) + 1,
      );
      for (const address of addresses) expect(ordersTo(address)).toHaveLength(1);
      for (const service of running) service.child.kill('SIGTERM');
      for (const result of await Promise.all(running.map((service) => service.result)))
        expect(result.code, result.stderr).toBe(0);
    }, 180_000);
  },
);
