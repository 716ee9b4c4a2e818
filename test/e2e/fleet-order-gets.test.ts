/**
 * Order GETs of a service sharing a PostgreSQL (issue 47 item 3: order GETs only for the orders this host
 * follows, or from what the shared state already knows). An order the service placed, on its way and not in the
 * fleet's reading of the list, is read by id once a cycle: the cycle's settling (service/placed-orders.ts) and its
 * in-flight count (ensure/in-flight.ts) use the same answer. Counted at the sandbox: GET /v1/energy/orders/<id>.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { freshAddress, until, serviceCycles } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'order GETs of a service sharing the list', () => {
  // Orders stay on their way for the test: the address waits, short on chain, and its order is followed.
  const world = worldForSuite({ rateLimit: false, deliverAfterMs: 3_600_000 });
  const cluster = clusterForSuite(bin);
  const sql = (query: string) => cluster.current.sql(query);

  it('an order on its way that the reading does not show is read by id once a cycle, not once to settle and once to count', async () => {
    const address = freshAddress(47_790);
    const schema = await world.run(['state', 'status', '--json'], {
      env: { ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-gets-')), ...cluster.current.env },
    });
    expect(schema.code, schema.stderr).toBe(0);
    // The reading kept young by hand from the start: the one taken before the order is what every later cycle
    // uses, so the order is followed by id.
    const freeze = setInterval(
      () => sql('UPDATE energy.order_list SET read_at = now() WHERE read_at IS NOT NULL'),
      200,
    );
    onTestFinished(() => clearInterval(freeze));
    const service = world.spawn(['ensure', ...rentalArgs([address], '--yes', '--json', '--every', '1s')], {
      env: {
        ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-gets-')),
        ENERGY_TRON_NODE: world.sandbox.url,
        ...cluster.current.env,
      },
    });
    onTestFinished(() => void service.child.kill('SIGKILL'));
    await until('five cycles', () => serviceCycles(service).length >= 5, 60_000);
    service.child.kill('SIGTERM');
    const result = await service.result;
    expect(result.code, result.stderr).toBe(0);
    const orders = world.sandbox.orders().filter((order) => order.address === address);
    expect(orders).toHaveLength(1);
    const cycles = serviceCycles(service);
    expect(cycles[0]!.items[0]).toMatchObject({ reason: 'bought' });
    for (const cycle of cycles.slice(1)) expect(cycle.items[0]).toMatchObject({ reason: 'in_flight' });
    // Each cycle after the buying one reads it once (the last one may have begun another before the stop).
    const gets = world.sandbox.requestCount(`/v1/energy/orders/${orders[0]!.id}`, 'GET');
    expect(gets, `${gets} GETs of the order in ${cycles.length - 1} cycles after the buying one`).toBeLessThanOrEqual(
      cycles.length,
    );
    expect(gets).toBeGreaterThanOrEqual(cycles.length - 1);
  }, 120_000);
});
