/**
 * Renewal ahead of the end, played on a sandbox whose clock runs 120 times as fast (issue 45): two services,
 * one with the default --renew-before and one with 0, each keep 65,000 energy on an address with 1-hour
 * rentals; the address sends one USDT transfer 5 s (sandbox time) after its first rental ends. With the
 * default lead the next rental was bought and delivered before the end, and the transfer is covered; with 0
 * nothing replaces the rental before the transfer, and it burns. Counted at the sandbox (its node's traffic
 * and its order book).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshAddress, until } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';

const SCALE = 120;
const HOUR_MS = 3_600_000;
// A delivery takes 10 s of sandbox time: what a renewal bought after the end cannot be there 5 s after it.
const DELIVER_MS = 10_000;
const world = worldForSuite({ timeScale: SCALE, deliverAfterMs: DELIVER_MS, rateLimit: false });

/** A service keeping 65,000 energy on `address` with 1-hour rentals, a cycle every minute of sandbox time. */
function service(address: string, extra: string[]) {
  const args = ['ensure', address, '--energy', '65000', '--hours', '1', '--every', `${60_000 / SCALE}ms`];
  return world.spawn([...args, '--yes', '--json', ...extra], {
    env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-renew-')) },
  });
}

const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
const sandboxNowMs = async () =>
  ((await (await fetch(`${world.sandbox.url}/v1/time`)).json()) as { unix_time: number }).unix_time * 1000;

/** Plays the first rental's end for one address; what its one transfer met, and its orders. */
async function playEnd(address: string, extra: string[]) {
  const running = service(address, extra);
  const first = await until(
    'the first rental delivered',
    () => ordersTo(address).find((o) => o.delivery_final),
    30_000,
  );
  // The rental ends at its creation + the delivery + 1 h; the transfer 5 s (at most 6 s) after that.
  const endMs = first.created_at * 1000 + DELIVER_MS + HOUR_MS;
  const transferMs = endMs + 6_000;
  const now = await sandboxNowMs();
  world.sandbox.seedTronAccount(address, { transfersPerHour: HOUR_MS / (transferMs - now) });
  const [traffic] = await until(
    'the transfer',
    () => {
      const report = world.sandbox.traffic().filter((entry) => entry.address === address);
      return report[0]!.transfers >= 1 ? report : undefined;
    },
    90_000,
  );
  running.child.kill('SIGTERM');
  const result = await running.result;
  return { traffic: traffic!, orders: ordersTo(address), endMs, result };
}

describe('a service over a sandbox at --time-scale, with traffic', () => {
  it('the default --renew-before renews before the end: the transfer is covered; with 0 it burns', async () => {
    const [ahead, after] = await Promise.all([
      playEnd(freshAddress(45_101), []),
      playEnd(freshAddress(45_102), ['--renew-before', '0']),
    ]);
    expect(ahead.result.code, ahead.result.stderr).toBe(0);
    expect(after.result.code, after.result.stderr).toBe(0);
    expect(ahead.traffic).toMatchObject({ transfers: 1, covered: 1, burned_trx: '0.000000' });
    // The renewal was placed before the first rental ended.
    expect(ahead.orders.length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...ahead.orders.map((o) => o.created_at * 1000)) < ahead.endMs).toBe(true);
    expect(ahead.orders.filter((o) => o.created_at * 1000 < ahead.endMs)).toHaveLength(2);
    // 64,285 energy at 100 sun, none of it held: 6.4285 TRX burnt.
    expect(after.traffic).toMatchObject({ transfers: 1, covered: 0, burned_trx: '6.428500' });
    expect(after.orders.filter((o) => o.created_at * 1000 < after.endMs)).toHaveLength(1);
    const early = ahead.result.stdout
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => (JSON.parse(line) as { items: { early?: { reason: string } }[] }).items ?? []);
    expect(early.some((item) => item.early?.reason === 'renewal')).toBe(true);
  }, 150_000);
});
