/** Following orders to a final state: delivered, failed, or ended without delivery; and interrupting a listing. */
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { SANDBOX_FAILING_ADDRESS, SANDBOX_UNDELIVERABLE_ADDRESS } from '../../src/sandbox/index.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { json } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ seedOrders: 400 });

const rental = (address: string) => ['order', 'create', address, '--energy', '65000', '--hours', '1', '--yes'];

describe('--wait and order wait end on any final state', () => {
  it('ends at once with exit 8 when the lifecycle ends without delivery (lifecycle_final, not delivery_final)', async () => {
    const result = await world.run([
      ...rental(SANDBOX_UNDELIVERABLE_ADDRESS),
      '--wait',
      '--wait-timeout',
      '20',
      '--json',
    ]);
    // Before: polled until the timeout and ended with exit 7 "not delivered".
    expect(result.code, result.stderr).toBe(8);
    const order = json<Order>(result);
    expect(order).toMatchObject({ lifecycle_final: true, delivery_final: false, failure: { code: 'ORDER_ABORTED' } });
    expect(result.stderr).toMatch(new RegExp(`order ${order.id} failed: ORDER_ABORTED`));
  });

  it('order wait follows an existing order to delivery (exit 0)', async () => {
    const created = json<Order>(await world.run([...rental(freshAddress(9001)), '--json']));
    expect(created.delivery_final).toBe(false);
    const result = await world.run(['order', 'wait', created.id, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(json<Order>(result)).toMatchObject({ id: created.id, delivery_final: true, failure: null });
  });

  it('order wait on an order already final says so, and does not claim to wait', async () => {
    const created = json<Order>(await world.run([...rental(freshAddress(9003)), '--wait', '--json']));
    expect(created.delivery_final).toBe(true);
    const path = `/v1/energy/orders/${created.id}`;
    const before = world.sandbox.requestCount(path, 'GET');
    const result = await world.run(['order', 'wait', created.id]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`energy: order ${created.id} is ${created.status}, final already`);
    expect(result.stderr).not.toContain('waiting until');
    expect(world.sandbox.requestCount(path, 'GET') - before).toBe(1);
  });

  it('order wait exits 8 for an order that failed, and prints it', async () => {
    const created = json<Order>(await world.run([...rental(SANDBOX_FAILING_ADDRESS), '--json']));
    const result = await world.run(['order', 'wait', created.id]);
    expect(result.code).toBe(8);
    expect(result.stdout).toMatch(/DELEGATION_FAILED/);
    expect(result.stderr).toMatch(/failed: DELEGATION_FAILED/);
  });

  it('the hint after a failed follow names order wait, which does follow', async () => {
    world.sandbox.inject({ kind: 'status', status: 503, times: 3, match: { method: 'GET' } });
    const result = await world.run([...rental(freshAddress(9002)), '--wait', '--retries', '0']);
    world.sandbox.clearFaults();
    expect(result.code).toBe(7);
    const command = /follow it with: energy (order wait \S+)$/m.exec(result.stderr)?.[1];
    expect(command).toBeDefined();
    expect((await world.run(command!.split(' '))).code).toBe(0);
  });
});

describe('SIGINT during order list --all --json', () => {
  it('closes the document validly with next_cursor at the page not yet read, and says how to read on', async () => {
    world.sandbox.inject({ kind: 'delay', ms: 400, times: 100, match: { method: 'GET', path: '/v1/energy/orders' } });
    const running = world.spawn(['order', 'list', '--all', '--limit', '20', '--json']);
    await until('the first order is written', () => running.output().stdout.includes('"id"'), 15_000);
    running.child.kill('SIGINT');
    const result = await running.result;
    world.sandbox.clearFaults();
    expect(result.code).toBe(130);
    const document = json<{ items: Order[]; next_cursor: string | null }>(result);
    expect(document.items.length).toBeGreaterThan(0);
    expect(document.items.length).toBeLessThan(world.sandbox.orders().length);
    expect(document.next_cursor).not.toBeNull();
    expect(result.stderr).toMatch(/interrupted by SIGINT/);
    const readOn = /read on with: energy (.*)$/m.exec(result.stderr)?.[1];
    expect(readOn).toContain(`--cursor ${document.next_cursor}`);
    // Reading on from the cursor continues right after the last order printed.
    const rest = await world.run(['order', 'list', '--limit', '20', '--json', '--cursor', document.next_cursor!]);
    const all = world.sandbox.orders();
    const lastIndex = all.findIndex((order) => order.id === document.items.at(-1)!.id);
    expect(json<{ items: Order[] }>(rest).items[0]!.id).toBe(all[lastIndex + 1]!.id);
  });
});

describe('--wait-timeout running out (exit 10: the order stands)', () => {
  const slow = worldForSuite({ deliverAfterMs: 600_000 });

  it('order create --wait exits 10, prints the order, and names the command that follows it on', async () => {
    const result = await slow.run([...rental(freshAddress(9101)), '--wait', '--wait-timeout', '1', '--json']);
    expect(result.code, result.stderr).toBe(10);
    const order = json<Order>(result);
    expect(order.delivery_final).toBe(false);
    expect(slow.sandbox.orders().filter((o) => o.id === order.id)).toHaveLength(1);
    expect(JSON.parse(result.stderr)).toMatchObject({
      error: {
        exit_code: 10,
        message: `order ${order.id} is still pending after 1s; \`energy --json order wait ${order.id}\` follows it on`,
      },
    });
  });

  it('order wait exits 10 the same way, and places nothing', async () => {
    const created = json<Order>(await slow.run([...rental(freshAddress(9102)), '--json']));
    const before = slow.sandbox.orders().length;
    const result = await slow.run(['--profile', 'nosuch', 'order', 'wait', created.id, '--wait-timeout', '1'], {
      env: { ENERGY_PROFILE: '' },
    });
    expect(result.code, result.stderr).toBe(10);
    expect(result.stderr).toContain(`is still pending after 1s; \`energy --profile nosuch order wait ${created.id}\``);
    expect(slow.sandbox.orders()).toHaveLength(before);
  });

  it('backs off: fewer than 12 reads of the order in a 20 s wait (it was 21, one a second)', async () => {
    const created = json<Order>(await slow.run([...rental(freshAddress(9103)), '--json']));
    const path = `/v1/energy/orders/${created.id}`;
    const result = await slow.run(['order', 'wait', created.id, '--wait-timeout', '20s']);
    expect(result.code, result.stderr).toBe(10);
    expect(result.stderr).toContain('is still pending after 20s');
    // One read to start, then 1, 2, 4, 8 s apart, and the last at the deadline: 6 in all.
    expect(slow.sandbox.requestCount(path, 'GET')).toBeLessThan(12);
    expect(slow.sandbox.requestCount(path, 'GET')).toBeGreaterThan(2);
  }, 45_000);
});
