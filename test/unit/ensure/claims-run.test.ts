/**
 * `ensure` through its claims (state/address-claim.ts): an address another host holds is skipped (reason
 * claimed_elsewhere, not read, not a failure), one lost while this host could not renew its lease is not
 * ordered for, the claims are let go whatever happens, and an address whose shortfall is on its way costs one
 * node read a cycle (issue 39 items 1 and 4).
 */
import { describe, expect, it } from 'vitest';
import type { AddressClaim } from '../../../src/state/address-claim.js';
import { ensureFailure } from '../../../src/ensure/outcome.js';
import { runEnsure } from '../../../src/ensure/run-ensure.js';
import { leaseMs } from '../../../src/state/pg/pg-claims.js';
import { freshAddress } from '../../helpers/e2e.js';
import { FakeApi, FakeNode, Host, ensureOptions, fakeOrder } from './fakes.js';

const [X, Y, Z] = [freshAddress(39_501), freshAddress(39_502), freshAddress(39_503)];

/** A claim as a shared store gives it: `others` held by host-b; `lost` taken over before the decision. */
function claimed(others: string[], lost: string[] = []) {
  const seen = { released: 0, decided: [] as string[][] };
  const claim = async (addresses: readonly string[]): Promise<AddressClaim> => ({
    mine: addresses.filter((address) => !others.includes(address)),
    elsewhere: new Map(others.map((address) => [address, { host: 'host-b', until: '2026-11-23T10:01:00.000Z' }])),
    decide: async (wanted, work) => {
      seen.decided.push([...wanted]);
      return work(wanted.filter((address) => !lost.includes(address)));
    },
    release: async () => {
      seen.released += 1;
    },
  });
  return { claim, seen };
}

describe('ensure through claims', () => {
  it('an address another host holds is skipped in its place: not read, not bought, not a failure', async () => {
    const api = new FakeApi();
    const node = new FakeNode();
    const host = new Host(api, node);
    const { claim, seen } = claimed([Y]);
    const items = await runEnsure({ ...host.deps(), claim }, ensureOptions({ addresses: [X, Y, Z] }));
    expect(items.map((item) => [item.address, item.reason])).toEqual([
      [X, 'bought'],
      [Y, 'claimed_elsewhere'],
      [Z, 'bought'],
    ]);
    expect(items[1]).toMatchObject({ available: null, error: null, claimed_by: { host: 'host-b' } });
    expect(ensureFailure(items)).toBeUndefined();
    expect(node.reads).toBe(4); // X and Z, each read again before buying: Y never
    expect(api.ordersTo(Y)).toHaveLength(0);
    expect(seen).toEqual({ released: 1, decided: [[X, Z]] });
  });

  it('an address whose lease was taken over before the decision is not ordered for', async () => {
    const api = new FakeApi();
    const host = new Host(api, new FakeNode());
    const { claim } = claimed([], [X]);
    const items = await runEnsure({ ...host.deps(), claim }, ensureOptions({ addresses: [X, Z] }));
    expect(items.map((item) => item.reason)).toEqual(['claimed_elsewhere', 'bought']);
    expect(api.ordersTo(X)).toHaveLength(0);
  });

  it('the claims are let go when the decision fails', async () => {
    const api = new FakeApi();
    api.durations = [24];
    const host = new Host(api, new FakeNode());
    const { claim, seen } = claimed([]);
    await expect(runEnsure({ ...host.deps(), claim }, ensureOptions({ addresses: [X] }))).rejects.toMatchObject({
      exitCode: 2,
    });
    expect(seen.released).toBe(1);
  });

  it('a service whose address waits for an order on its way reads the node once a cycle (getaccount once a process)', async () => {
    const api = new FakeApi();
    const node = new FakeNode();
    let accounts = 0;
    const getAccount = node.getAccount.bind(node);
    node.getAccount = async () => {
      accounts += 1;
      return getAccount();
    };
    const host = new Host(api, node);
    api.orders = [
      fakeOrder({
        address: X,
        client_request_id: 'on-its-way',
        status: 'pending',
        lifecycle_final: false,
        delivery_final: false,
      }),
    ];
    const deps = host.deps();
    for (let cycle = 0; cycle < 3; cycle += 1) {
      const [item] = await runEnsure(deps, ensureOptions({ addresses: [X] }));
      expect(item).toMatchObject({ reason: 'in_flight', in_flight: 65_000 });
    }
    expect([node.reads, accounts]).toEqual([3, 1]);
    expect(api.posted).toHaveLength(0);
  });
});

describe('the lease', () => {
  it('lasts three intervals of a service, at least 5 s and at most 15 minutes; 30 s for one run', () => {
    expect([leaseMs(1_000), leaseMs(10_000), leaseMs(60_000), leaseMs(3_600_000)]).toEqual([
      5_000, 30_000, 180_000, 900_000,
    ]);
    expect(leaseMs(undefined)).toBe(30_000);
  });
});
