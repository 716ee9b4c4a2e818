/**
 * Order GETs once for the fleet (issue 47 item 3): an order past the part of the list read, followed by id by
 * one host until it ended, is not asked for again by another host that shares what the fleet knows
 * (FinalOrders, energy.final_order in PostgreSQL); one still on its way is asked for by each, and a store that
 * cannot be reached costs requests, never a wrong count. Counted at the fake server: GET /v1/energy/orders/{id}.
 */
import { describe, expect, it } from 'vitest';
import { orderRequestBody } from '../../../src/client/client.js';
import type { FinalOrders } from '../../../src/journal/final-orders.js';
import { runEnsure } from '../../../src/ensure/run-ensure.js';
import { freshAddress } from '../../helpers/e2e.js';
import { journalRecord } from '../../helpers/memory-journal.js';
import { FakeApi, FakeNode, Host, ensureOptions, fakeOrder } from './fakes.js';
import type { Order } from '../../../src/client/types.js';

const X = freshAddress(47_301);
const MINUTE_MS = 60_000;

/** What the fleet knows, in memory, as the database keeps it: ids, each once. */
class SharedFinal implements FinalOrders {
  readonly ids = new Set<string>();
  broken = false;
  async known(orderIds: readonly string[]): Promise<Set<string>> {
    if (this.broken) throw new Error('the store cannot be reached');
    return new Set(orderIds.filter((id) => this.ids.has(id)));
  }
  async add(orderIds: readonly string[]): Promise<void> {
    if (this.broken) throw new Error('the store cannot be reached');
    for (const id of orderIds) this.ids.add(id);
  }
}

/** The order, journaled by each host (the shared journal), with 1,000 newer orders to others in front of it. */
function world(order: Partial<Order>): { api: FakeApi; hosts: Host[]; order: Order } {
  const api = new FakeApi();
  const placed = fakeOrder({
    address: X,
    client_request_id: 'own-1',
    created_at: api.nowMs - 30 * MINUTE_MS,
    ...order,
  });
  api.orders = [
    ...Array.from({ length: 1000 }, (_, i) =>
      fakeOrder({
        address: freshAddress(47_310 + (i % 5)),
        client_request_id: `busy-${i}`,
        created_at: api.nowMs - 1000 - i,
      }),
    ),
    placed,
  ];
  const body = orderRequestBody({
    client_request_id: 'own-1',
    address: X,
    energy: 65_000,
    duration_hours: 1,
    expected_total_trx: '2.600000',
  });
  const at = new Date(api.nowMs - 30 * MINUTE_MS).toISOString();
  const hosts = [0, 1, 2].map(() => {
    const host = new Host(api, new FakeNode());
    host.journal.records.set('own-1', journalRecord('own-1', body, { kind: 'created', at, order_id: placed.id }, at));
    return host;
  });
  return { api, hosts, order: placed };
}

/** Each host's dry run in turn, sharing `fleet`; the order GETs each sent. */
async function getsByHost(api: FakeApi, hosts: Host[], fleet: FinalOrders): Promise<number[]> {
  const real = api.getOrder.bind(api);
  let gets = 0;
  api.getOrder = async (id) => {
    gets += 1;
    return real(id);
  };
  const counts: number[] = [];
  for (const host of hosts) {
    const before = gets;
    await runEnsure({ ...host.deps(), finalOrders: fleet }, ensureOptions({ addresses: [X], dryRun: true }));
    counts.push(gets - before);
  }
  return counts;
}

describe('order GETs once for the fleet', () => {
  it('an order that ended 30 minutes into its hour, past the list read: followed by the first host alone (GETs 1, 0, 0)', async () => {
    const { api, hosts, order } = world({ status: 'failed' });
    const fleet = new SharedFinal();
    expect(await getsByHost(api, hosts, fleet)).toEqual([1, 0, 0]);
    expect([...fleet.ids]).toEqual([order.id]);
  });

  it('an order still on its way: followed by every host (GETs 1, 1, 1), none told ended', async () => {
    const { api, hosts } = world({ status: 'pending', lifecycle_final: false, delivery_final: false });
    const fleet = new SharedFinal();
    const counts = await getsByHost(api, hosts, fleet);
    expect(counts).toEqual([1, 1, 1]);
    expect(fleet.ids.size).toBe(0);
  });

  it('the store cannot be reached: each host follows the order itself (GETs 1, 1, 1), the runs go on', async () => {
    const { api, hosts } = world({});
    const fleet = new SharedFinal();
    fleet.broken = true;
    expect(await getsByHost(api, hosts, fleet)).toEqual([1, 1, 1]);
  });
});
