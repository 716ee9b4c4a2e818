/**
 * The ensure flow that decides (in-flight counting, anchors, derived ids and the earlier-need step, what
 * is bought and what is refused), through EnsureDeps with a fake API, node, journal and host clock. Each
 * case counts what reached the server: orders placed, quotes asked.
 */
import { describe, expect, it } from 'vitest';
import { NetworkError, UsageError } from '../../../src/domain/errors.js';
import { ConflictError, InterruptedError } from '../../../src/domain/cli-errors.js';
import { orderRequestBody } from '../../../src/client/client.js';
import { newItem } from '../../../src/ensure/item.js';
import { needId, periodStart, windowStart } from '../../../src/ensure/need-id.js';
import { placeNeed } from '../../../src/ensure/place-need.js';
import { freshAddress } from '../../helpers/e2e.js';
import { FakeApi, FakeNode, HOUR_MS, Host, ensureOptions, fakeOrder } from './fakes.js';
import { runEnsure } from '../../../src/ensure/run-ensure.js';

const X = freshAddress(22_001);

function world(): { api: FakeApi; node: FakeNode; host: Host } {
  const api = new FakeApi();
  const node = new FakeNode();
  return { api, node, host: new Host(api, node) };
}

/** X's orders for two earlier needs, each placed under the id the one before it derives (expired now). */
function twoEarlierNeeds(api: FakeApi): { first: ReturnType<typeof fakeOrder>; second: ReturnType<typeof fakeOrder> } {
  const start = periodStart(X, api.nowMs);
  const first = fakeOrder({
    address: X,
    client_request_id: needId(X, { periodStartMs: start }),
    created_at: api.nowMs - 5 * HOUR_MS,
  });
  const second = fakeOrder({
    id: '00000000-0000-4000-8000-0000000002b2',
    address: X,
    client_request_id: needId(X, { orderId: first.id }),
    created_at: api.nowMs - 3 * HOUR_MS,
  });
  api.orders = [second, first];
  return { first, second };
}

describe('anchors and derived ids', () => {
  it('a third need in one window anchors on the newest order, and buys', async () => {
    const { api, host } = world();
    const { second } = twoEarlierNeeds(api);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'bought', to_buy: 65_000 });
    expect(api.ordersTo(X)).toHaveLength(3);
    // printf 'ensure need v1\n%s\nafter %s' "$X" "$SECOND_ID" | sha256sum, its first 32 digits.
    expect(second.id).toBe('00000000-0000-4000-8000-0000000002b2');
    expect(item!.bought!.client_request_id).toBe('ensure-bf60f54cb6d55ffd2420e2b9246a957d');
  });

  it('an order older than the window under a derived id answered an earlier need: the id moves past it', async () => {
    const { api, host } = world();
    const old = fakeOrder({
      id: '00000000-0000-4000-8000-0000000001d1',
      address: X,
      client_request_id: needId(X, { periodStartMs: periodStart(X, api.nowMs) }),
      created_at: windowStart(X, api.nowMs) - HOUR_MS,
    });
    api.orders = [old];
    const [item] = await host.run({ addresses: [X] });
    expect(item!.reason).toBe('bought');
    // printf 'ensure need v1\n%s\nafter %s' "$X" "$OLD_ID" | sha256sum, its first 32 digits.
    expect(item!.bought!.client_request_id).toBe('ensure-1f059e0b346c5243f591e4e94dd8faad');
    expect(api.ordersTo(X)).toHaveLength(2);
  });

  it('a busy account: X beyond the newest 1,000 orders still gets a new order for a new need', async () => {
    const { api, host } = world();
    const old = fakeOrder({
      address: X,
      client_request_id: needId(X, { periodStartMs: periodStart(X, api.nowMs) }),
      created_at: api.nowMs - 2 * HOUR_MS,
    });
    const others = Array.from({ length: 1001 }, (_, i) =>
      fakeOrder({
        address: freshAddress(23_000 + (i % 7)),
        client_request_id: `other-${i}`,
        created_at: api.nowMs - HOUR_MS,
      }),
    );
    api.orders = [...others, old];
    const [item] = await host.run({ addresses: [X] });
    expect(item!.reason).toBe('bought');
    expect(item!.bought!.id).not.toBe(old.id);
    expect(api.ordersTo(X)).toHaveLength(2);
  });

  it('several addresses are read back to the earliest of their windows', async () => {
    const { api, host } = world();
    const [a, b] = [freshAddress(22_010), freshAddress(22_011)].sort(
      (p, q) => windowStart(p, api.nowMs) - windowStart(q, api.nowMs),
    ) as [string, string];
    const [early, late] = [windowStart(a, api.nowMs), windowStart(b, api.nowMs)];
    expect(late - early).toBeGreaterThan(2000);
    // Pages of one order: the reading stops at the first page ending before its oldest moment.
    api.maxPageSize = 1;
    api.defaultPageSize = 1;
    const pendingToA = fakeOrder({
      address: a,
      client_request_id: 'elsewhere-a',
      status: 'pending',
      lifecycle_final: false,
      delivery_final: false,
      created_at: early + 1000,
      // Within its term (a day or two back, the window's start): an order past it holds nothing.
      duration_hours: 72,
    });
    const between = fakeOrder({ address: freshAddress(22_012), client_request_id: 'z', created_at: late - 1000 });
    api.orders = [between, pendingToA];
    const items = await host.run({ addresses: [a, b] });
    expect(items.find((item) => item.address === a)).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(api.ordersTo(a)).toHaveLength(1);
  });
});

describe('what is on its way', () => {
  it('a delivered order the node does not show counts in flight for the grace, then fails the item not_on_chain (never bought again); one the node shows and the address used is a need', async () => {
    const { api, host, node } = world();
    const delivered = fakeOrder({
      address: X,
      client_request_id: 'just-delivered',
      status: 'active',
      lifecycle_final: false,
      delivery_final: true,
      created_at: api.nowMs - 10_000,
      updated_at: api.nowMs - 6_000,
    });
    api.orders = [delivered];
    expect((await host.run({ addresses: [X] }))[0]).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(api.posted).toHaveLength(0);
    // 66 s after its delivery: past the 60 s grace.
    api.nowMs += 60_000;
    const [unseen] = await host.run({ addresses: [X] });
    expect(unseen).toMatchObject({ reason: 'not_on_chain', in_flight: 0, bought: null, error: { exit_code: 8 } });
    expect(unseen!.error!.message).toBe(
      `order ${delivered.id} delivered 65,000 energy to ${X} at 2026-11-23T09:59:54Z, but the TRON node at https://node.energy.test does not show it (energy limit 0): not bought again while it lasts; is ENERGY_TRON_NODE on the API's network?`,
    );
    expect(api.posted).toHaveLength(0);
    // The node shows the delegation (its limit holds it) and the address used it: a real shortfall.
    node.used.set(X, 65_000);
    expect((await host.run({ addresses: [X] }))[0]).toMatchObject({ reason: 'bought', in_flight: 0 });
    expect(api.posted).toHaveLength(1);
  });

  it('a delivered order that covers the shortfall costs one node read: counted in IN_FLIGHT against the first reading', async () => {
    const { api, node, host } = world();
    api.orders = [
      fakeOrder({
        address: X,
        client_request_id: 'just-delivered',
        status: 'active',
        lifecycle_final: false,
        delivery_final: true,
        created_at: api.nowMs - 10_000,
        updated_at: api.nowMs - 6_000,
      }),
    ];
    // Short at the first reading; the delivery would show at a second one, which is not needed: nothing is short.
    node.set(X, 0, 65_000);
    expect((await host.run({ addresses: [X] }))[0]).toMatchObject({
      reason: 'in_flight',
      available: 0,
      in_flight: 65_000,
    });
    expect(node.reads).toBe(1);
    expect(api.posted).toHaveLength(0);
  });

  it('a shortfall left after what is on its way reads the address again: a delivery shown by then is counted once', async () => {
    const { api, node, host } = world();
    api.orders = [
      fakeOrder({
        address: X,
        client_request_id: 'half-delivered',
        energy: 30_000,
        status: 'active',
        lifecycle_final: false,
        delivery_final: true,
        created_at: api.nowMs - 10_000,
        updated_at: api.nowMs - 6_000,
      }),
    ];
    // 0 at the first reading, short by 35,000 after the delivery in flight; the second reading shows 65,000.
    node.set(X, 0, 65_000);
    expect((await host.run({ addresses: [X] }))[0]).toMatchObject({
      reason: 'enough',
      available: 65_000,
      in_flight: 0,
    });
    expect(node.reads).toBe(2);
    expect(api.posted).toHaveLength(0);
  });

  it('an order not delivered yet still counts whole beside what the chain shows (nothing is bought)', async () => {
    const { api, node, host } = world();
    api.orders = [
      fakeOrder({
        address: X,
        client_request_id: 'on-its-way',
        status: 'pending',
        lifecycle_final: false,
        delivery_final: false,
      }),
    ];
    node.set(X, 0, 65_000);
    expect((await host.run({ addresses: [X] }))[0]).toMatchObject({ available: 0, in_flight: 65_000 });
    expect(api.posted).toHaveLength(0);
  });

  it("another host's order met under the derived id counts only while on its way: a failed one counts 0", async () => {
    const { api, host } = world();
    api.onPost = (sent, server) => {
      const theirs = server.place(sent);
      Object.assign(theirs, { status: 'failed', lifecycle_final: true, delivery_final: true });
      theirs.failure = { code: 'DELEGATION_FAILED', message: 'x' };
      return { order: theirs, created: false };
    };
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight_elsewhere', in_flight: 0, bought: null });
  });

  it("ensure's own request with an unknown outcome is sent again on the next run: placed once, then in flight", async () => {
    const { api, host } = world();
    api.onPost = () => new NetworkError('socket hang up', { outcomeUncertain: true });
    await expect(host.run({ addresses: [X] })).resolves.toMatchObject([{ reason: 'failed' }]);
    expect(host.journal.pending()).toHaveLength(1);
    api.onPost = undefined;
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(api.ordersTo(X)).toHaveLength(1);
    expect(host.journal.pending()).toHaveLength(0);
    expect(host.notes.join('\n')).toMatch(/was sent again: placed now, order/);
  });

  it('a dry run does not send that request again; it counts it in flight', async () => {
    const { api, host } = world();
    api.onPost = () => new NetworkError('socket hang up', { outcomeUncertain: true });
    await host.run({ addresses: [X] });
    api.onPost = undefined;
    const [item] = await host.run({ addresses: [X], dryRun: true });
    expect(item).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(api.ordersTo(X)).toHaveLength(0);
  });

  it("an order the server has under an id this machine journaled is this run's purchase, not another host's", async () => {
    const { api, host } = world();
    const deps = host.deps();
    const need = {
      anchor: { periodStartMs: periodStart(X, api.nowMs) },
      windowStartMs: windowStart(X, api.nowMs),
      listedSinceMs: undefined,
    };
    const id = needId(X, need.anchor);
    const item = { ...newItem(X, 65_000, 0), to_buy: 65_000, reason: 'would_buy' as const };
    const quote = await api.quote({ address: X, energy: 65_000, duration_hours: 1 });
    // This machine's earlier request, committed after this run read the list (held by a slow server).
    await host.journal.begin(
      id,
      orderRequestBody({
        client_request_id: id,
        address: X,
        energy: 65_000,
        duration_hours: 1,
        expected_total_trx: quote.total_trx,
      }),
    );
    api.onPost = (sent, server) => ({ order: server.place(sent), created: false });
    await placeNeed(await deps.api(), 1, { item, quote, need }, () => api.nowMs);
    expect(item).toMatchObject({ reason: 'bought', in_flight: 0 });
    expect(item.bought!.client_request_id).toBe(id);
  });
});

describe('sizing', () => {
  it('--hours not offered is exit 2 before any quote', async () => {
    const { api, host } = world();
    await expect(host.run({ addresses: [X], hours: 3 })).rejects.toBeInstanceOf(UsageError);
    expect(api.quoted).toHaveLength(0);
  });

  it('an address that reaches its target on the second reading is enough', async () => {
    const { api, node, host } = world();
    node.set(X, 0, 65_000);
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'enough', available: 65_000 });
    expect(api.quoted).toHaveLength(0);
  });

  it('the tolerance holds when sizing: drift plus what is on its way buys nothing', async () => {
    const { api, node, host } = world();
    node.set(X, 30_000);
    api.orders = [
      fakeOrder({
        address: X,
        client_request_id: 'on-its-way',
        energy: 34_500,
        status: 'pending',
        lifecycle_final: false,
        delivery_final: false,
        created_at: api.nowMs - 1000,
      }),
    ];
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight', in_flight: 34_500, to_buy: 0 });
    expect(api.quoted).toHaveLength(0);
  });
});

describe('buying', () => {
  it('a single address whose quote says can_afford: false is refused (exit 5), nothing sent', async () => {
    const { api, host } = world();
    api.canAfford = false;
    await expect(host.run({ addresses: [X] })).rejects.toBeInstanceOf(ConflictError);
    expect(api.posted).toHaveLength(0);
  });

  it('intake disabled: exit 5 before any quote or order', async () => {
    const { api, host } = world();
    api.intake = false;
    await expect(host.run({ addresses: [X] })).rejects.toThrow(/intake of new orders is disabled/);
    expect(api.quoted).toHaveLength(0);
    expect(api.posted).toHaveLength(0);
  });

  it('--place-what-fits places in the order given what the balance covers, and sends nothing else', async () => {
    const { api, host } = world();
    api.available = '5.000000';
    api.unitPrice = '0.000040';
    const addresses = [freshAddress(22_020), freshAddress(22_021), freshAddress(22_022)];
    const items = await host.run({ addresses, energy: 60_000, placeWhatFits: true });
    expect(items.map((item) => item.reason)).toEqual(['bought', 'bought', 'failed']);
    expect(api.posted.map((body) => JSON.parse(body).address)).toEqual(addresses.slice(0, 2));
    expect(items[2]!.error!.message).toMatch(/more than the balance has left/);
    // One at a time: the balance pays the first listed, whatever other clients spend meanwhile.
    expect(api.maxPostsAtOnce).toBe(1);
  });

  it('Ctrl-C while buying ends the run (its exit code), not a failed item', async () => {
    const { api, host } = world();
    api.onPost = () => new InterruptedError('SIGINT');
    await expect(host.run({ addresses: [X] })).rejects.toMatchObject({ exitCode: 130 });
  });

  it('--wait confirms a delivery the chain shows exactly to the expected figure', async () => {
    const { api, node, host } = world();
    node.set(X, 0, 0, 64_350);
    api.onPost = (sent, server) => {
      const order = server.place(sent);
      Object.assign(order, { status: 'active', delivery_final: true });
      return { order, created: true };
    };
    const [item] = await host.run({ addresses: [X], waitSeconds: 5 });
    expect(item).toMatchObject({ reason: 'bought', available_after: 64_350, error: null });
  });
});

describe('clocks', () => {
  it('two hosts a day apart deciding at the same moment send one id: one order', async () => {
    const api = new FakeApi();
    const node = new FakeNode();
    const hosts = [new Host(api, node, 0), new Host(api, node, 25 * HOUR_MS)];
    const results = await Promise.all(hosts.map((host) => host.run({ addresses: [X] })));
    expect(api.ordersTo(X)).toHaveLength(1);
    expect(results.map(([item]) => item!.reason).sort()).toEqual(['bought', 'in_flight_elsewhere']);
  });

  it('a host 72 h behind still follows its own orders that the list no longer reaches', async () => {
    const { api, node } = world();
    const host = new Host(api, node, -72 * HOUR_MS);
    expect((await host.run({ addresses: [X] }))[0]!.reason).toBe('bought');
    // 1,000 newer orders since, from elsewhere: X's pending order is beyond the part of the list read.
    api.orders.unshift(
      ...Array.from({ length: 1000 }, (_, i) =>
        fakeOrder({ address: freshAddress(24_000), client_request_id: `batch-${i}` }),
      ),
    );
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    expect(api.ordersTo(X)).toHaveLength(1);
  });

  it('six needs in a row on a host 72 h ahead buy six orders', async () => {
    const { api, node } = world();
    const host = new Host(api, node, 72 * HOUR_MS);
    for (let need = 1; need <= 6; need += 1) {
      const [item] = await host.run({ addresses: [X] });
      expect(item!.reason, `need ${need}`).toBe('bought');
      // The order expires; the next need comes an hour later.
      Object.assign(api.orders[0]!, { status: 'expired', lifecycle_final: true, delivery_final: true });
      api.nowMs += HOUR_MS;
    }
    expect(api.ordersTo(X)).toHaveLength(6);
    // One request each: no need met an earlier need's order under its id.
    expect(api.posted).toHaveLength(6);
  });
});

describe('rent or burn', () => {
  it('an item shows what burning the energy it buys would cost, at the chain price read once', async () => {
    const { node, host } = world();
    node.set(X, 30_000);
    const items = await host.run({ addresses: [X, freshAddress(22_030)] });
    // 35,000 and 65,000 energy bought, at 210 sun.
    expect(items.map((item) => [item.to_buy, item.burn_trx])).toEqual([
      [35_000, '7.350000'],
      [65_000, '13.650000'],
    ]);
    expect(node.priceReads).toBe(1);
  });

  it('nothing to buy reads no price', async () => {
    const { node, host } = world();
    node.set(X, 65_000);
    await host.run({ addresses: [X] });
    expect(node.priceReads).toBe(0);
  });

  it('a node that cannot say the price costs a note, not the order', async () => {
    const { api, node, host } = world();
    node.energyFeeSun = undefined;
    const [item] = await host.run({ addresses: [X] });
    expect(item).toMatchObject({ reason: 'bought', burn_trx: null });
    expect(api.ordersTo(X)).toHaveLength(1);
    expect(host.notes.join('\n')).toMatch(/price of burning energy is unknown/);
  });
});

describe('consent through the confirm function it is given', () => {
  it('asks the question once, with each purchase shown, and buys on yes', async () => {
    const { api, host } = world();
    const questions: string[] = [];
    const deps = { ...host.deps(), confirm: async (question: string) => (questions.push(question), true) };
    const [item] = await runEnsure(deps, ensureOptions({ addresses: [X], yes: false }));
    expect(item).toMatchObject({ reason: 'bought', to_buy: 65_000 });
    expect(api.ordersTo(X)).toHaveLength(1);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatch(/^Buy this order for \d+\.\d{6} TRX in all\?$/);
    expect(host.notes.some((line) => line.includes(`${X}  65,000 energy, 1 h`))).toBe(true);
  });

  it('places nothing on no (exit 2), and without a confirm function refuses without --yes', async () => {
    const { api, host } = world();
    const no = { ...host.deps(), confirm: async () => false };
    await expect(runEnsure(no, ensureOptions({ addresses: [X], yes: false }))).rejects.toThrow(
      'order cancelled: nothing was placed',
    );
    await expect(host.run({ addresses: [X], yes: false })).rejects.toBeInstanceOf(UsageError);
    expect(api.ordersTo(X)).toHaveLength(0);
  });
});
