/**
 * How far ensure walks past earlier needs' orders met under derived ids: each 200 with an order older than
 * the window moves the id on past it, up to ten such orders in a row (eleven requests); an eleventh is the
 * end: nothing bought, exit 5, naming the eleven tried. Through runEnsure with the fake API, counting POSTs.
 */
import { describe, expect, it } from 'vitest';
import { needId, periodStart, windowStart } from '../../../src/ensure/need-id.js';
import { freshAddress } from '../../helpers/e2e.js';
import { FakeApi, FakeNode, HOUR_MS, Host, fakeOrder } from './fakes.js';

/**
 * `count` orders to `address` older than its window, each under the id derived from the one before it (the
 * first from the period): what runs of other hosts long ago would have left, as far as ids go.
 */
function earlierNeeds(api: FakeApi, address: string, count: number): void {
  const before = windowStart(address, api.nowMs);
  let anchorId: string | undefined;
  for (let n = 0; n < count; n += 1) {
    const order = fakeOrder({
      address,
      client_request_id:
        anchorId === undefined
          ? needId(address, { periodStartMs: periodStart(address, api.nowMs) })
          : needId(address, { orderId: anchorId }),
      created_at: before - (count - n) * HOUR_MS,
      updated_at: before - (count - n) * HOUR_MS,
    });
    api.orders.unshift(order);
    anchorId = order.id;
  }
}

describe('walking past earlier needs’ orders', () => {
  it.each([3, 10])(
    '%i of them in a row: walked past, and this need bought (one POST each, and one more)',
    async (count) => {
      const X = freshAddress(22_500 + count);
      const api = new FakeApi();
      const host = new Host(api, new FakeNode());
      earlierNeeds(api, X, count);
      const [item] = await host.run({ addresses: [X] });
      expect(item).toMatchObject({ reason: 'bought', to_buy: 65_000 });
      expect(api.posted).toHaveLength(count + 1);
      expect(api.ordersTo(X)).toHaveLength(count + 1);
    },
  );

  it('11 of them in a row: nothing bought, exit 5 after 11 requests', async () => {
    const X = freshAddress(22_520);
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    earlierNeeds(api, X, 11);
    const [item] = await host.run({ addresses: [X] });
    expect(item!.reason).not.toBe('bought');
    expect(item!.bought).toBeNull();
    expect(item!.error).toMatchObject({
      exit_code: 5,
      message: `the order ids derived for ${X} all belong to earlier needs' orders (11 tried): nothing bought`,
    });
    expect(api.posted).toHaveLength(11);
    expect(api.ordersTo(X)).toHaveLength(11);
  });
});
