/**
 * A delivery the node shows ends its node-lag grace at once (landed.ts): a hot wallet that spends a delivery
 * within the minute after it lands is bought for again in the next cycle, not a cycle late. Shown means the
 * address's energy limit grew by the order since the reading before it, not a limit above zero: an address
 * with energy of its own is never bought for twice. Through runEnsure with the fake API and node, with the map
 * a service keeps between cycles; counts what reached the server.
 */
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../../helpers/e2e.js';
import type { LimitBefore } from '../../../src/ensure/landed.js';
import { runEnsure } from '../../../src/ensure/run-ensure.js';
import { FakeApi, FakeNode, Host, ensureOptions, fakeOrder } from './fakes.js';

const X = freshAddress(22_451);

/** A service's host: its readings before each order kept between cycles. */
function service() {
  const api = new FakeApi();
  const node = new FakeNode();
  const host = new Host(api, node);
  const limitsBefore = new Map<string, LimitBefore>();
  const run = (energy: number) =>
    runEnsure({ ...host.deps(), limitsBefore }, ensureOptions({ addresses: [X], energy }));
  return { api, node, run, limitsBefore };
}

/** The server delivers the order 2 s after it was placed, and its clock moves on 10 s. */
function deliver(api: FakeApi, id: string): void {
  const order = api.orders.find((candidate) => candidate.id === id)!;
  Object.assign(order, { status: 'active', delivery_final: true, updated_at: order.created_at + 2_000 });
  api.nowMs += 10_000;
}

describe('a delivery the node shows is not on its way any more', () => {
  it('100,000 of its own, 65,000 delivered and spent at once (limit 165,000): bought again in the next cycle', async () => {
    const { api, node, run } = service();
    node.set(X, 100_000);
    const [first] = await run(165_000);
    expect(first).toMatchObject({ reason: 'bought', to_buy: 65_000 });
    deliver(api, first!.bought!.id);
    // The limit holds the delivery; a transfer used it.
    node.used.set(X, 65_000);
    const [second] = await run(165_000);
    expect(second).toMatchObject({ reason: 'bought', available: 100_000, in_flight: 0, to_buy: 65_000 });
    expect(api.posted).toHaveLength(2);
  });

  it('100,000 of its own and the delivery not shown yet (limit 100,000): in flight, never bought twice', async () => {
    const { api, node, run } = service();
    node.set(X, 100_000);
    const [first] = await run(165_000);
    deliver(api, first!.bought!.id);
    const [second] = await run(165_000);
    expect(second).toMatchObject({ reason: 'in_flight', available: 100_000, in_flight: 65_000, bought: null });
    expect(api.posted).toHaveLength(1);
  });

  it('another rental delivered since, and the limit grown by one order only: both stay in flight', async () => {
    const { api, node, run } = service();
    node.set(X, 100_000);
    const [first] = await run(165_000);
    deliver(api, first!.bought!.id);
    // Another host's rental to X, delivered after the reading: the 65,000 the limit grew by may be it.
    api.orders.unshift(
      fakeOrder({
        address: X,
        client_request_id: 'another-host',
        status: 'active',
        lifecycle_final: false,
        delivery_final: true,
        created_at: api.nowMs - 6_000,
        updated_at: api.nowMs - 4_000,
      }),
    );
    node.used.set(X, 65_000);
    const [second] = await run(230_000);
    expect(second).toMatchObject({ reason: 'in_flight', available: 100_000, in_flight: 130_000, bought: null });
    expect(api.posted).toHaveLength(1);
  });

  it('without the readings (one run, not a service): the delivery keeps its grace', async () => {
    const api = new FakeApi();
    const node = new FakeNode();
    const host = new Host(api, node);
    node.set(X, 100_000);
    const [first] = await host.run({ addresses: [X], energy: 165_000 });
    deliver(api, first!.bought!.id);
    node.used.set(X, 65_000);
    const [second] = await host.run({ addresses: [X], energy: 165_000 });
    expect(second).toMatchObject({ reason: 'in_flight', in_flight: 65_000, bought: null });
    expect(api.posted).toHaveLength(1);
  });
});
