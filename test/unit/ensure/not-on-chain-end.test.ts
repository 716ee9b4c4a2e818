/**
 * `not_on_chain` does not ask the node for a rental within 60 s of its end, either side: it may be gone from
 * the node by the time it is read, after the list that called it active. Asked for, it failed an address that spends fast at every rental's end, nothing
 * bought, while its transfers burnt. Through runEnsure with the fake API and node; counts what reached the
 * server.
 */
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../../helpers/e2e.js';
import { FakeApi, FakeNode, HOUR_MS, Host, fakeOrder } from './fakes.js';

const X = freshAddress(22_452);

/** A 1-hour rental to X, delivered 2 s after it was placed, whose term ends `endsInMs` from now. */
function rentalEnding(api: FakeApi, endsInMs: number): void {
  const created = api.nowMs + endsInMs - HOUR_MS;
  api.orders = [
    fakeOrder({
      address: X,
      client_request_id: 'ending-rental',
      status: 'active',
      lifecycle_final: false,
      delivery_final: true,
      created_at: created,
      updated_at: created + 2_000,
    }),
  ];
}

describe('a rental at its end is not asked of the node', () => {
  it('ends in 30 s, the node no longer holds it: the shortfall is bought', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    rentalEnding(api, 30_000);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'bought', available: 0, in_flight: 0, to_buy: 65_000 });
    expect(api.posted).toHaveLength(1);
  });

  it('ended 30 s ago, still called active, the node no longer holds it: the shortfall is bought', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    rentalEnding(api, -30_000);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'bought', available: 0, in_flight: 0, to_buy: 65_000 });
    expect(api.posted).toHaveLength(1);
  });

  it('ends in 2 minutes, the node does not hold it: not_on_chain, nothing bought', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    rentalEnding(api, 120_000);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'not_on_chain', bought: null, error: { exit_code: 8 } });
    expect(api.posted).toHaveLength(0);
  });
});
