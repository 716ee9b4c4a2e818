/**
 * An order another host placed for the same need, delivered a moment ago, counts in flight on the server's
 * clock as this run measured it, not on this host's: a host ten minutes fast would otherwise see the delivery
 * ten minutes old, past the node-lag grace, and count nothing on its way. Through runEnsure with the fake API.
 */
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../../helpers/e2e.js';
import { FakeApi, FakeNode, Host } from './fakes.js';

const X = freshAddress(22_401);

/** The POST meets an order another host placed under the same id, delivered 5 s before the server's now. */
function anotherHostDelivered(api: FakeApi): void {
  api.onPost = (sent, server) => {
    const theirs = server.place(sent);
    Object.assign(theirs, { status: 'active', delivery_final: true, updated_at: server.nowMs - 5_000 });
    return { order: theirs, created: false };
  };
}

describe("another host's delivered order, met under the derived id", () => {
  it.each([
    ['on time', 0],
    ['ten minutes fast', 600_000],
    ['ten minutes slow', -600_000],
  ])('a host %s counts it in flight (delivered 5 s ago on the server): nothing bought', async (_name, aheadMs) => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode(), aheadMs);
    anotherHostDelivered(api);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight_elsewhere', in_flight: 65_000, bought: null, to_buy: 0 });
    expect(api.posted).toHaveLength(1);
    expect(api.ordersTo(X)).toHaveLength(1);
  });
});
