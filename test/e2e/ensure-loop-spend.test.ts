/**
 * The unattended service cannot loop-spend (issue 30), spawned for real against the sandbox and counted at
 * the server: a delivery the node never shows is bought once, then the item fails naming the node; the same
 * case in a single run says the same (exit 8, reason not_on_chain).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { SANDBOX_FAILING_ADDRESS, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { RunningCli } from '../helpers/cli.js';
import { freshAddress, httpGet, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { watchedServices } from '../helpers/watched-service.js';

interface CycleLine {
  cycle: number;
  items: { address: string; reason: string; error: { exit_code: number; message: string } | null }[];
  error?: { exit_code: number; message: string };
}

const cycles = (stdout: string): CycleLine[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as CycleLine);

describe('ensure: a delivery the TRON node does not show', () => {
  // The API's world; the node is another sandbox (another world), where no delivery ever shows.
  const world = worldForSuite({ deliverAfterMs: 300, rateLimit: false });
  let otherWorld: Sandbox;
  beforeAll(async () => {
    otherWorld = await startSandbox({ rateLimit: false });
  });
  afterAll(async () => otherWorld.close());

  it('is bought once over many cycles; past the node-lag grace the item fails naming the order and the node (service and single run)', async () => {
    const address = freshAddress(30_001);
    const services = watchedServices(world, { ENERGY_TRON_NODE: otherWorld.url }, 'energy-loop-');
    const { env, events } = services;
    const running: RunningCli = services.spawn([
      'ensure',
      ...rentalArgs(address, '--yes', '--every', '200ms', '--json'),
    ]);
    const ordersTo = () => world.sandbox.orders().filter((order) => order.address === address);
    await until('the order is delivered', () => ordersTo()[0]?.delivery_final === true);
    const seen = () => cycles(running.output().stdout);
    const afterDelivery = seen().length;
    await until('three cycles counted the delivery in flight', () => seen().length >= afterDelivery + 3);
    expect(seen().at(-1)!.items[0]!.reason).toBe('in_flight');
    // The node-lag grace (60 s on the server's clock) runs out at once.
    world.sandbox.advance(61_000);
    await until('an item fails not_on_chain', () => seen().some((line) => line.items[0]?.reason === 'not_on_chain'));
    const first = seen().findIndex((line) => line.items[0]?.reason === 'not_on_chain');
    await until('15 more cycles', () => seen().length >= first + 16, 20_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);

    const [order] = ordersTo();
    expect(ordersTo()).toHaveLength(1);
    const failing = cycles(result.stdout).slice(first);
    expect(failing.length).toBeGreaterThanOrEqual(16);
    for (const line of failing) {
      expect(line.items[0]).toMatchObject({ reason: 'not_on_chain', error: { exit_code: 8 } });
    }
    const message = failing[0]!.items[0]!.error!.message;
    expect(message).toContain(`order ${order!.id} delivered 65,000 energy to ${address} at `);
    expect(message).toContain(`the TRON node at ${otherWorld.url} does not show it (energy limit 0)`);
    expect(message).toMatch(/is ENERGY_TRON_NODE on the API's network\?$/);

    // One run on its own meets the same case and says the same: exit 8, reason not_on_chain, no order.
    const single = await world.run(['ensure', ...rentalArgs(address, '--yes', '--json')], { env });
    expect(single.code, single.stderr).toBe(8);
    expect(JSON.parse(single.stdout).items[0]).toMatchObject({ reason: 'not_on_chain', error: { exit_code: 8 } });
    expect(JSON.parse(single.stdout).items[0].error.message).toContain(`the TRON node at ${otherWorld.url}`);
    expect(ordersTo()).toHaveLength(1);
    // The service raised it once, when the address started failing, with its reason.
    expect(events().filter((event) => event.event === 'address_failed')).toEqual([
      expect.objectContaining({ address, reason: 'not_on_chain', error: expect.objectContaining({ exit_code: 8 }) }),
    ]);
  }, 60_000);
});

describe('ensure --every: an address whose deliveries always fail', () => {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });

  it('backs off (at most 4 orders in 20 cycles), raises delivery_failed once with the code, counts the cycles failed and spends 0', async () => {
    const { events, spawnWithMetrics } = watchedServices(
      world,
      { ENERGY_TRON_NODE: world.sandbox.url },
      'energy-loop-',
    );
    const { running, url } = await spawnWithMetrics([
      'ensure',
      ...rentalArgs(SANDBOX_FAILING_ADDRESS, '--yes', '--every', '500ms', '--json'),
    ]);
    const seen = () => cycles(running.output().stdout);
    await until('20 cycles', () => seen().length >= 20, 30_000);
    const scrape = (await httpGet(`${url}/metrics`)).body;
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);

    const orders = world.sandbox.orders();
    // Cycle 1 orders; 2 sees it failed and 3 waits; 4 orders; 5-7; 8 orders; 9-13; 14 orders; 15-23 wait.
    expect(orders.length).toBeGreaterThanOrEqual(3);
    expect(orders.length).toBeLessThanOrEqual(4);
    expect(orders.every((order) => order.failure?.code === 'DELEGATION_FAILED')).toBe(true);
    const raised = events().filter((event) => event.event === 'delivery_failed');
    expect(raised).toEqual([
      expect.objectContaining({
        event: 'delivery_failed',
        address: SANDBOX_FAILING_ADDRESS,
        order_id: orders.at(-1)!.id,
        failure: expect.objectContaining({ code: 'DELEGATION_FAILED' }),
        next_order_cycle: 4,
      }),
    ]);
    const lines = cycles(result.stdout);
    expect(lines[1]!.items[0]).toMatchObject({ reason: 'delivery_failed', error: { exit_code: 8 } });
    expect(lines[1]!.items[0]!.error!.message).toBe(
      `order ${orders.at(-1)!.id} to ${SANDBOX_FAILING_ADDRESS} failed at delivery (DELEGATION_FAILED; its price went back to the balance), 1 in a row: no order to ${SANDBOX_FAILING_ADDRESS} before cycle 4`,
    );
    // The address fails cycle after cycle (also across the cycles that order for it): one address_failed.
    expect(events().filter((event) => event.event === 'address_failed')).toEqual([
      expect.objectContaining({ address: SANDBOX_FAILING_ADDRESS, reason: 'delivery_failed' }),
    ]);
    expect(scrape).toContain('\nenergy_ensure_spent_trx_total 0.000000\n');
    expect(scrape).toContain(`\nenergy_ensure_orders_total{result="placed"} ${orders.length}\n`);
    expect(scrape).toMatch(/\nenergy_ensure_orders_total\{result="delivery_failed"\} [34]\n/);
    // Only the cycles that placed an order stood; every other one failed (the address was not supplied).
    expect(scrape).toContain(`\nenergy_ensure_cycles_total{result="ok"} ${orders.length}\n`);
    expect(scrape).toMatch(/\nenergy_ensure_cycles_total\{result="failed"\} 1[6-9]\n/);
  }, 60_000);
});

describe('ensure --max-spend', () => {
  // An order delivers after 100 ms and its "hour" lasts 2 s: a need comes back every ~2 s.
  const world = worldForSuite({ deliverAfterMs: 100, hourMs: 2_000, rateLimit: false });

  it('orders that expire every 2 s under --max-spend 8/1h give 2 orders of 3.9 TRX across a stop and a start; the limit is raised once, the gauges and /readyz say so, /livez stays 200, one run says the same', async () => {
    const address = freshAddress(30_301);
    // Activated already (no activation fee), 0.000060 TRX per energy for 1 h: 65,000 energy is 3.900000 TRX.
    world.sandbox.seedTronAccount(address, { activated: true });
    world.sandbox.setRates({ 1: '0.000060' });
    const services = watchedServices(world, { ENERGY_TRON_NODE: world.sandbox.url }, 'energy-loop-');
    const { env, events, stateDir } = services;
    const args = ['ensure', ...rentalArgs(address, '--yes', '--every', '300ms', '--max-spend', '8/1h', '--json')];
    const { running: first, url } = await services.spawnWithMetrics(args);
    const refused = (running: RunningCli) =>
      cycles(running.output().stdout).filter((line) => line.items[0]?.reason === 'spend_limit').length;
    await until('five cycles refused by the ceiling', () => refused(first) >= 5, 30_000);
    const scrape = (await httpGet(`${url}/metrics`)).body;
    const health = await httpGet(`${url}/healthz`);
    const ready = await httpGet(`${url}/readyz`);
    const live = await httpGet(`${url}/livez`);
    first.child.kill('SIGTERM');
    expect((await first.result).code).toBe(0);

    const second = services.spawn(args, { metrics: true });
    await until('the restarted service refused five cycles', () => refused(second) >= 5, 30_000);
    second.child.kill('SIGTERM');
    const after = await second.result;
    expect(after.code, after.stderr).toBe(0);

    const orders = world.sandbox.orders().filter((order) => order.address === address);
    expect(orders.map((order) => order.total_trx)).toEqual(['3.900000', '3.900000']);
    const line = cycles(after.stdout).find((cycle) => cycle.items[0]?.reason === 'spend_limit')!;
    expect(line.items[0]).toMatchObject({ reason: 'spend_limit', error: { exit_code: 5 } });
    expect(line.items[0]!.error!.message).toMatch(
      /^3\.900000 TRX would pass --max-spend 8\/1h: 0\.200000 TRX left of 8\.000000; the oldest order counted leaves the window at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ on the API's clock: not ordered$/,
    );
    expect(scrape).toContain('\nenergy_ensure_spent_trx_total 7.800000\n');
    expect(scrape).toContain('\nenergy_ensure_spend_left_trx 0.200000\n');
    expect(scrape).toContain('\nenergy_ensure_spend_limit_reached 1\n');
    // Held at the ceiling is no failure: its own cycle result, no failed order counted cycle after cycle.
    expect(scrape).toMatch(/\nenergy_ensure_cycles_total\{result="spend_limit"\} [5-9]\d*\n/);
    expect(scrape).toContain('\nenergy_ensure_cycles_total{result="failed"} 0\n');
    expect(scrape).toContain('\nenergy_ensure_orders_total{result="failed"} 0\n');
    const reason = '--max-spend 8/1h: 0.200000 TRX left, less than one order (3.900000 TRX)';
    for (const probe of [health, ready]) {
      expect(probe.status).toBe(503);
      expect(JSON.parse(probe.body)).toMatchObject({ reason, spend_limit: reason });
    }
    // Alive all the while: a restart (the health timer, a HEALTHCHECK) asks /livez, and leaves it running.
    expect(live.status).toBe(200);
    // Once for the first service, once for the second: each time it is reached.
    expect(events().filter((event) => event.event === 'spend_limit_reached')).toEqual([
      expect.objectContaining({ max_spend: '8/1h', left_trx: '0.200000' }),
      expect.objectContaining({ max_spend: '8/1h', left_trx: '0.200000' }),
    ]);
    const ledger = readdirSync(join(stateDir, 'journal')).find((name) => name.endsWith('.ndjson'))!;
    expect(statSync(join(stateDir, 'journal', ledger)).mode & 0o777).toBe(0o600);

    // One run on its own says the same: exit 5, reason spend_limit, nothing ordered.
    const single = await world.run(['ensure', ...rentalArgs(address, '--yes', '--max-spend', '8/1h', '--json')], {
      env,
    });
    expect(single.code, single.stderr).toBe(5);
    expect(JSON.parse(single.stdout).items[0]).toMatchObject({ reason: 'spend_limit', error: { exit_code: 5 } });
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(2);
  }, 90_000);
});

describe('ensure, one run with --wait: a delivery that fails', () => {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });

  it('says what the service says: exit 8, reason delivery_failed, the server code', async () => {
    const result = await world.run(['ensure', ...rentalArgs(SANDBOX_FAILING_ADDRESS, '--yes', '--wait', '--json')], {
      env: { ENERGY_TRON_NODE: world.sandbox.url },
    });
    expect(result.code, result.stderr).toBe(8);
    const [item] = JSON.parse(result.stdout).items;
    expect(item).toMatchObject({ reason: 'delivery_failed', error: { exit_code: 8 } });
    expect(item.error.message).toMatch(/^order \S+ failed: DELEGATION_FAILED: /);
    expect(world.sandbox.orders()).toHaveLength(1);
  });
});

describe('ensure --every: an outage', () => {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });

  it('of 30 cycles raises one cycle_failed and one recovered', async () => {
    const address = freshAddress(30_401);
    const { events, spawn } = watchedServices(world, { ENERGY_TRON_NODE: world.sandbox.url }, 'energy-loop-');
    const running = spawn(['--retries', '0', 'ensure', ...rentalArgs(address, '--yes', '--every', '100ms', '--json')]);
    onTestFinished(() => world.sandbox.clearFaults());
    const seen = () => cycles(running.output().stdout);
    await until('a cycle ran to its end', () => seen().some((line) => line.error === undefined));
    // Every request fails from now on (the API's and the node's): the cycles cannot finish.
    world.sandbox.inject({ kind: 'status', status: 503, times: 1_000_000 });
    const failedCycles = () => seen().filter((line) => line.error !== undefined).length;
    await until('30 cycles failed', () => failedCycles() >= 30, 30_000);
    world.sandbox.clearFaults();
    const before = seen().length;
    await until('a cycle ran to its end again', () =>
      seen()
        .slice(before)
        .some((line) => line.error === undefined),
    );
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(failedCycles()).toBeGreaterThanOrEqual(30);
    await until('the hooks ran', () => events().some((event) => event.event === 'recovered'));
    const alarms = events().filter((event) => ['cycle_failed', 'recovered'].includes(event.event));
    expect(alarms).toEqual([
      expect.objectContaining({
        event: 'cycle_failed',
        failed_cycles: 1,
        reminder: false,
        error: expect.objectContaining({ exit_code: 7 }),
      }),
      expect.objectContaining({ event: 'recovered', failed_cycles: failedCycles() }),
    ]);
  }, 60_000);
});
