/**
 * A delivered order counts in flight for the node-lag grace after its delivery (its updated_at on the server's
 * clock), however long it took to deliver: an order created minutes ago and delivered seconds ago is not bought
 * again. Through runEnsure with the fake API and node; counts what reached the server.
 */
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../../helpers/e2e.js';
import { FakeApi, FakeNode, Host, fakeOrder } from './fakes.js';

const X = freshAddress(22_301);

function slowDelivery(api: FakeApi): void {
  api.orders = [
    fakeOrder({
      address: X,
      client_request_id: 'slow-to-deliver',
      status: 'active',
      lifecycle_final: false,
      delivery_final: true,
      // Created ten minutes ago, delivered five seconds ago.
      created_at: api.nowMs - 600_000,
      updated_at: api.nowMs - 5_000,
    }),
  ];
}

describe('the node-lag grace runs from the delivery, not the order', () => {
  it('an order slow to deliver, delivered 5 s ago: in flight, nothing bought', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    slowDelivery(api);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight', in_flight: 65_000, bought: null });
    expect(api.posted).toHaveLength(0);
    expect(api.ordersTo(X)).toHaveLength(1);
  });

  it('the same order 56 s later (61 s after its delivery, past the 60 s grace), its energy used: bought', async () => {
    const api = new FakeApi();
    const node = new FakeNode();
    const host = new Host(api, node);
    slowDelivery(api);
    api.nowMs += 56_000;
    // The node shows the delegation (its limit holds it) and the address used it: a real shortfall. A node that
    // did not show it would fail the item not_on_chain (issue 30), never buy it again.
    node.used.set(X, 65_000);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'bought', in_flight: 0, to_buy: 65_000 });
    expect(api.posted).toHaveLength(1);
    expect(api.ordersTo(X)).toHaveLength(2);
  });

  it('54 s later (59 s after its delivery): still in flight', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    slowDelivery(api);
    api.nowMs += 54_000;
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(api.posted).toHaveLength(0);
  });
});
