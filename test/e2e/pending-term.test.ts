/**
 * A pending record has an end (issue 44): `order create` from cron, its request lost on the way (a reboot),
 * its id never used again. Until its term (journaled_at + its hours + 15 min, on the server clock) `ensure`
 * counts it in flight; past it, it counts nothing, and is still listed by `order pending`. Counted at the
 * sandbox: no order while it counts, one order after.
 */
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { pendingIdsOf } from '../helpers/pending.js';
import { orderCreateArgs, rentalArgs } from '../helpers/rental.js';
import { shiftedClockEnv } from '../helpers/shifted-clock.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const MINUTE_MS = 60_000;

describe('a pending record past its term', () => {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });

  it('counts in flight until journaled_at + 1 h + 15 min on the server clock, then no longer (still listed)', async () => {
    const address = freshAddress(44_950);
    world.sandbox.seedTronAccount(address, { activated: true });
    const env = { ENERGY_TRON_NODE: world.sandbox.url };
    const id = `cron-lost-${address}`;
    // The request never reaches the order book: its outcome is unknown to the CLI.
    world.sandbox.inject({ kind: 'drop', times: 1, match: { method: 'POST', path: '/v1/energy/orders' } });
    const lost = await world.run(orderCreateArgs(address, '--yes', '--retries', '0', '--client-request-id', id), {
      env,
    });
    expect(lost.code, lost.stderr).not.toBe(0);
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }))).toEqual([id]);
    const ordersTo = () => world.sandbox.orders().filter((order) => order.address === address);

    const within = await world.run(['ensure', ...rentalArgs(address, '--yes', '--json')], { env });
    expect(json<{ items: { reason: string }[] }>(within).items[0]!.reason, within.stderr).toBe('in_flight');
    expect(ordersTo()).toHaveLength(0);

    // 1 h 16 min on, on the server's clock (this host's is where it was): the record's term is over.
    world.sandbox.advance(76 * MINUTE_MS);
    const after = await world.run(['ensure', ...rentalArgs(address, '--yes', '--json')], { env });
    expect(json<{ items: { reason: string }[] }>(after).items[0]!.reason, after.stderr).toBe('bought');
    expect(ordersTo()).toHaveLength(1);
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }))).toEqual([id]);

    // order pending reads no clock of the API: on a host 76 min on, the record shows its age and its end.
    const later = await world.run(['order', 'pending', '--json'], {
      env: { ...env, ...shiftedClockEnv(76 * MINUTE_MS) },
    });
    const [shown] = json<{ items: { age_seconds: number; past_term: boolean }[] }>(later).items;
    expect(shown!.past_term).toBe(true);
    expect(shown!.age_seconds).toBeGreaterThanOrEqual(76 * 60);
    const text = await world.run(['order', 'pending'], { env: { ...env, ...shiftedClockEnv(76 * MINUTE_MS) } });
    expect(text.stderr).toContain(`${id} was journaled 1 h ago, past its term: ensure no longer counts it in flight`);
    const doctor = await world.run(['doctor'], { env });
    expect(doctor.stdout + doctor.stderr).toContain('1 past its term, no longer counted in flight by ensure');

    // No order carries its id: it can be dropped, and is no longer pending; the order count is unchanged.
    const dropped = await world.run(['order', 'drop', id, '--json'], { env });
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }))).toEqual([]);
    expect(ordersTo()).toHaveLength(1);
  }, 60_000);

  it('order drop refuses a pending request the server did receive (its order carries the id), and keeps it', async () => {
    const address = freshAddress(44_951);
    const env = { ENERGY_TRON_NODE: world.sandbox.url };
    const id = `cron-committed-${address}`;
    // Committed at the server, the answer lost: the journal keeps it pending, the account has its order.
    world.sandbox.inject({ kind: 'drop-after-commit', times: 1, match: { method: 'POST', path: '/v1/energy/orders' } });
    await world.run(orderCreateArgs(address, '--yes', '--retries', '0', '--client-request-id', id), { env });
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }))).toContain(id);
    const refused = await world.run(['order', 'drop', id], { env });
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('carries client_request_id');
    expect(refused.stderr).toContain(`order recover ${id}`);
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }))).toContain(id);
  }, 60_000);
});

const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'a pending record past its term, in PostgreSQL', () => {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });
  const cluster = clusterForSuite(bin);

  it('ends for ensure at its term, stays listed, and is dropped from the shared journal once checked', async () => {
    const address = freshAddress(44_960);
    world.sandbox.seedTronAccount(address, { activated: true });
    const env = { ...cluster.current.env, ENERGY_TRON_NODE: world.sandbox.url };
    const id = `cron-lost-pg-${address}`;
    world.sandbox.inject({ kind: 'drop', times: 1, match: { method: 'POST', path: '/v1/energy/orders' } });
    await world.run(orderCreateArgs(address, '--yes', '--retries', '0', '--client-request-id', id), { env });
    expect(cluster.current.sql(`SELECT count(*) FROM energy.journal WHERE outcome IS NULL`)).toBe('1');
    const ordersTo = () => world.sandbox.orders().filter((order) => order.address === address);
    const within = await world.run(['ensure', ...rentalArgs(address, '--yes', '--json')], { env });
    expect(json<{ items: { reason: string }[] }>(within).items[0]!.reason, within.stderr).toBe('in_flight');
    world.sandbox.advance(76 * MINUTE_MS);
    const after = await world.run(['ensure', ...rentalArgs(address, '--yes', '--json')], { env });
    expect(json<{ items: { reason: string }[] }>(after).items[0]!.reason, after.stderr).toBe('bought');
    expect(ordersTo()).toHaveLength(1);
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }))).toEqual([id]);
    const dropped = await world.run(['order', 'drop', id], { env });
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(cluster.current.sql(`SELECT count(*) FROM energy.journal WHERE outcome IS NULL`)).toBe('0');
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }))).toEqual([]);
  }, 60_000);
});
