/**
 * `order create` run again after an interrupt (what a person does after Ctrl-C, and what a retry loop in a
 * script does): the earlier run's journaled request is settled first, never a second order beside it; a
 * new --client-request-id asks for another. And intake closed by the server: no order at all, exit 5;
 * `quote` says so. Spawned for real, counted at the sandbox.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freshAddress, until } from '../helpers/e2e.js';
import { pendingIdsOf } from '../helpers/pending.js';
import { orderCreateArgs, rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ deliverAfterMs: 300, rateLimit: false });
const ORDERS = '/v1/energy/orders';
const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
const stateEnv = () => ({ ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-rerun-')) });

/** `order create --yes` stopped by SIGTERM once its order is committed but before the answer: exit 143. */
async function interruptedCreate(address: string, env: Record<string, string>): Promise<void> {
  world.sandbox.inject({ kind: 'hold-after-commit', match: { method: 'POST', path: ORDERS } });
  try {
    const running = world.spawn(orderCreateArgs(address, '--yes'), { env });
    const deadline = Date.now() + 15_000;
    while (ordersTo(address).length === 0) {
      if (Date.now() > deadline) throw new Error(`no order: ${running.output().stderr}`);
      await sleep(20);
    }
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(143);
    expect(result.stderr).toContain('order recover');
  } finally {
    world.sandbox.clearFaults();
  }
  // Its delivery activates the address, which takes 1.100000 TRX off the next quote. Waited for here so
  // that no later run quotes before the delivery and posts after it (a PRICE_CHANGED that CI once met).
  await until('the interrupted order is delivered', () => ordersTo(address)[0]?.delivery_final === true);
}

describe('order create after an interrupt', () => {
  it('run again: settles the earlier request and shows its order, exit 0, one order in all', async () => {
    const address = freshAddress(23_101);
    const env = stateEnv();
    await interruptedCreate(address, env);
    const pending = pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }));
    expect(pending).toHaveLength(1);
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const again = await world.run(orderCreateArgs(address, '--yes', '--json'), { env });
    expect(again.code, again.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: ordersTo(address)[0]!.id, client_request_id: pending[0] });
    expect(again.stderr).toContain(`an earlier run sent this same order`);
    // Its time as every readable time: local, to the second, with its offset (not ISO UTC with milliseconds).
    expect(again.stderr).toMatch(
      /sent this same order at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d) \(client_request_id/,
    );
    // The journaled bytes were resent: no new quote.
    expect(world.sandbox.requestCount('/v1/energy/quotes')).toBe(quotes);
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }))).toEqual([]);
    // Settled: the next run is a new order, as any.
    const next = await world.run(orderCreateArgs(address, '--yes'), { env });
    expect(next.code, next.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(2);
  });

  it('a new --client-request-id asks for another order beside it', async () => {
    const address = freshAddress(23_102);
    const env = stateEnv();
    await interruptedCreate(address, env);
    const other = await world.run(orderCreateArgs(address, '--yes', '--client-request-id', 'another-one'), { env });
    expect(other.code, other.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(2);
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env }))).toHaveLength(1);
  });

  it('without --yes in a script: refuses naming order recover, nothing sent', async () => {
    const address = freshAddress(23_103);
    const env = stateEnv();
    await interruptedCreate(address, env);
    const posts = world.sandbox.requestCount(ORDERS, 'POST');
    const refused = await world.run([...orderCreateArgs(address)], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/order recover [0-9a-f-]{36}/);
    expect(world.sandbox.requestCount(ORDERS, 'POST')).toBe(posts);
    expect(ordersTo(address)).toHaveLength(1);
  });
});

describe('intake disabled by the server', () => {
  it('order create: exit 5 before any order, saying so; quote notes it (a JSON note with --json)', async () => {
    const address = freshAddress(23_104);
    world.sandbox.setIntake(false);
    try {
      const posts = world.sandbox.requestCount(ORDERS, 'POST');
      for (const extra of [['--yes'], ['--expected-total', '3.700000']]) {
        const result = await world.run(orderCreateArgs(address, ...extra), { env: stateEnv() });
        expect(result.code, result.stderr).toBe(5);
        expect(result.stderr).toContain('intake of new orders is disabled');
      }
      expect(world.sandbox.requestCount(ORDERS, 'POST')).toBe(posts);
      const quote = await world.run(['quote', ...rentalArgs(address)]);
      expect(quote.stderr).toContain('intake of new orders is disabled');
      const json = await world.run(['quote', ...rentalArgs(address), '--json']);
      const lines = json.stderr
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines[0]).toEqual({
        note: { message: expect.stringContaining('intake of new orders is disabled') as unknown },
      });
    } finally {
      world.sandbox.setIntake(true);
    }
    expect(ordersTo(address)).toHaveLength(0);
  });
});
