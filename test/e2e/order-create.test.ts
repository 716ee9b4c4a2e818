import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { subtractAmounts } from '../../src/domain/money.js';
import { SANDBOX_FAILING_ADDRESS } from '../../src/sandbox/index.js';
import { allDelivered, balanceOf, expectNoStackTrace, freshAddress, signedCall } from '../helpers/e2e.js';
import { ADDRESS, createWorld, json, type World } from '../helpers/world.js';

/** 65,000 energy for 1 h on an address that has never had a delivery: 2.600000 + 1.100000 activation. */
const RENTAL = ['--energy', '65000', '--hours', '1'] as const;
const FIRST_PRICE = '3.700000';

const ORDER_FIELDS = [
  'address',
  'client_request_id',
  'created_at',
  'delivery_final',
  'duration_hours',
  'energy',
  'failure',
  'id',
  'lifecycle_final',
  'status',
  'total_trx',
  'updated_at',
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let world: World;
let nextAddress = 0;
/** A new address for each test, so that activation fees and deliveries of other tests never change its price. */
const address = () => freshAddress(++nextAddress);
const ordersTo = (target: string): Order[] => world.sandbox.orders().filter((order) => order.address === target);
const ordersWithId = (clientRequestId: string): Order[] =>
  world.sandbox.orders().filter((order) => order.client_request_id === clientRequestId);

beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => world.close());

describe('energy order create: local checks', () => {
  it.each([
    ['a bad address checksum', ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', ...RENTAL, '--yes']],
    ['energy 0', [ADDRESS, '--energy', '0', '--hours', '1', '--yes']],
    ['hours abc', [ADDRESS, '--energy', '65000', '--hours', 'abc', '--yes']],
  ])('refuses %s with exit 2 and sends nothing (no quote, no order)', async (_case, args) => {
    const before = world.sandbox.requestCount();
    const result = await world.run(['order', 'create', ...args]);
    expect(result.code).toBe(2);
    expect(world.sandbox.requestCount('/v1/energy/quotes')).toBe(0);
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(0);
    expect(world.sandbox.requestCount()).toBe(before);
    expect(result.stdout).toBe('');
    expectNoStackTrace(result);
  });
});

describe('energy order create: consent', () => {
  it('refuses without --yes when stdin is not a terminal: exit 2, no order sent, names --yes and --expected-total', async () => {
    const target = address();
    const orderPosts = world.sandbox.requestCount('/v1/energy/orders');
    const result = await world.run(['order', 'create', target, ...RENTAL]);
    expect(result.code).toBe(2);
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(orderPosts);
    expect(ordersTo(target)).toEqual([]);
    expect(result.stderr).toContain('--yes');
    expect(result.stderr).toContain('--expected-total');
    expect(result.stdout).toBe('');
  });

  it('places the order with --yes (201) and prints it as JSON with the documented fields', async () => {
    const target = address();
    const result = await world.run(['order', 'create', target, ...RENTAL, '--yes', '--json']);
    expect(result.code).toBe(0);
    const order = json<Order>(result);
    expect(Object.keys(order).sort()).toEqual(ORDER_FIELDS);
    expect(order).toMatchObject({
      address: target,
      energy: 65000,
      duration_hours: 1,
      total_trx: FIRST_PRICE,
      failure: null,
    });
    expect(order.id).toMatch(UUID);
    expect(order.client_request_id).toMatch(UUID);
    expect(typeof order.created_at).toBe('number');
    // 201, not 200: a new order, and no "answered 200" note.
    expect(result.stderr).not.toMatch(/answered 200 \(not 201 Created\) with the order/);
    const stored = ordersTo(target);
    expect(stored.map((o) => o.id)).toEqual([order.id]);
    expect(stored[0]?.client_request_id).toBe(order.client_request_id);
  });

  it('takes --expected-total as consent by itself and asks for no quote', async () => {
    const target = address();
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const result = await world.run(['order', 'create', target, ...RENTAL, '--expected-total', FIRST_PRICE, '--json']);
    expect(result.code).toBe(0);
    expect(world.sandbox.requestCount('/v1/energy/quotes')).toBe(quotes);
    expect(json<Order>(result).total_trx).toBe(FIRST_PRICE);
    expect(ordersTo(target)).toHaveLength(1);
  });
});

describe('energy order create: --max-total', () => {
  it('refuses a quote above --max-total with exit 5 and places no order', async () => {
    const target = address();
    const orderPosts = world.sandbox.requestCount('/v1/energy/orders');
    const result = await world.run(['order', 'create', target, ...RENTAL, '--yes', '--max-total', '3.699999']);
    expect(result.code).toBe(5);
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(orderPosts);
    expect(ordersTo(target)).toEqual([]);
    expect(result.stderr).toContain('--max-total');
    expect(result.stdout).toBe('');
    expectNoStackTrace(result);
  });

  it('places the order when the quote is within --max-total', async () => {
    const target = address();
    const result = await world.run([
      'order',
      'create',
      target,
      ...RENTAL,
      '--yes',
      '--max-total',
      '3.700000',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(json<Order>(result).total_trx).toBe(FIRST_PRICE);
    expect(ordersTo(target)).toHaveLength(1);
  });
});

describe('energy order create: client_request_id', () => {
  it('returns the existing order (200) for a reused id with the same parameters, says so, and places no second one', async () => {
    const target = address();
    const id = `e2e-${randomUUID()}`;
    const args = [
      'order',
      'create',
      target,
      ...RENTAL,
      '--expected-total',
      FIRST_PRICE,
      '--client-request-id',
      id,
      '--json',
    ];
    const first = await world.run(args);
    expect(first.code).toBe(0);
    expect(first.stderr).not.toMatch(/answered 200 \(not 201 Created\) with the order/);

    const again = await world.run(args);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/answered 200 \(not 201 Created\) with the order/);
    expect(json<Order>(again).id).toBe(json<Order>(first).id);
    expect(ordersWithId(id)).toHaveLength(1);
    // Counted by what was bought, too: a second order under another id would show here.
    expect(ordersTo(target)).toHaveLength(1);
  });

  it('refuses a reused id with other parameters (409) with exit 5', async () => {
    const target = address();
    const id = `e2e-${randomUUID()}`;
    // The original order, placed directly so that this test spends one spawn.
    const original = await signedCall(world, 'POST', '/v1/energy/orders', {
      client_request_id: id,
      address: target,
      energy: 65000,
      duration_hours: 1,
      expected_total_trx: FIRST_PRICE,
    });
    expect(original.status).toBe(201);
    const result = await world.run([
      'order',
      'create',
      target,
      '--energy',
      '66000',
      '--hours',
      '1',
      '--yes',
      '--client-request-id',
      id,
    ]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/client_request_id|IDEMPOTENCY/);
    expect(ordersWithId(id)).toHaveLength(1);
    expect(ordersWithId(id)[0]?.energy).toBe(65000);
    expect(ordersTo(target)).toHaveLength(1);
    expectNoStackTrace(result);
  });

  it('retries an order whose answer was lost with the same id, so it is placed only once', async () => {
    const target = address();
    const orderPosts = world.sandbox.requestCount('/v1/energy/orders');
    world.sandbox.inject({ kind: 'drop-after-commit', match: { method: 'POST', path: '/v1/energy/orders' } });
    try {
      const result = await world.run(['order', 'create', target, ...RENTAL, '--expected-total', FIRST_PRICE, '--json']);
      expect(result.code).toBe(0);
      expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(orderPosts + 2);
      const stored = ordersTo(target);
      expect(stored).toHaveLength(1);
      expect(json<Order>(result).id).toBe(stored[0]?.id);
    } finally {
      world.sandbox.clearFaults();
    }
  });
});

describe('energy order create: refusals from the server', () => {
  it('exits 5 when --expected-total no longer matches the price (409) and places nothing', async () => {
    const target = address();
    world.sandbox.setRates({ 1: '0.000050' });
    try {
      const result = await world.run(['order', 'create', target, ...RENTAL, '--expected-total', FIRST_PRICE]);
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/PRICE_CHANGED|expected/);
      expect(ordersTo(target)).toEqual([]);
      expectNoStackTrace(result);
    } finally {
      world.sandbox.setRates({ 1: '0.000040' });
    }
  });

  it('exits 5 when the balance is too low (409) and places nothing', async () => {
    const target = address();
    const { available_trx } = await balanceOf(world);
    world.sandbox.setBalance('0.000000');
    try {
      const result = await world.run(['order', 'create', target, ...RENTAL, '--yes']);
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/INSUFFICIENT_BALANCE|available/);
      expect(ordersTo(target)).toEqual([]);
      expectNoStackTrace(result);
    } finally {
      world.sandbox.setBalance(available_trx);
    }
  });

  it('exits 5 when intake is disabled (409) and places nothing', async () => {
    const target = address();
    world.sandbox.setIntake(false);
    try {
      const result = await world.run(['order', 'create', target, ...RENTAL, '--expected-total', FIRST_PRICE]);
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/INTAKE_DISABLED|[Ii]ntake/);
      expect(ordersTo(target)).toEqual([]);
      expectNoStackTrace(result);
    } finally {
      world.sandbox.setIntake(true);
    }
  });
});

describe('energy order create --wait', () => {
  it('follows the order to delivery_final and prints the final state; the hold is spent', async () => {
    const target = address();
    await allDelivered(world);
    const before = await balanceOf(world);
    const result = await world.run(['order', 'create', target, ...RENTAL, '--yes', '--wait', '--json']);
    expect(result.code).toBe(0);
    const order = json<Order>(result);
    expect(order.delivery_final).toBe(true);
    expect(order.status).not.toBe('pending');
    expect(order.status).toBe(ordersTo(target)[0]?.status);
    expect(order.failure).toBeNull();
    const after = await balanceOf(world);
    expect(after.available_trx).toBe(subtractAmounts(before.available_trx, order.total_trx));
    expect(after.held_trx).toBe(before.held_trx);
  });

  it('exits 8 when the order ends in failure, prints the order with its failure, and names the code on stderr', async () => {
    await allDelivered(world);
    const before = await balanceOf(world);
    const result = await world.run([
      'order',
      'create',
      SANDBOX_FAILING_ADDRESS,
      ...RENTAL,
      '--yes',
      '--wait',
      '--json',
    ]);
    expect(result.code).toBe(8);
    const order = json<Order>(result);
    expect(order.address).toBe(SANDBOX_FAILING_ADDRESS);
    expect(order.delivery_final).toBe(true);
    expect(order.failure?.code).toBe('DELEGATION_FAILED');
    expect(result.stderr).toContain('DELEGATION_FAILED');
    expectNoStackTrace(result);
    // The failed order's hold went back to the balance.
    expect(await balanceOf(world)).toMatchObject({ available_trx: before.available_trx, held_trx: before.held_trx });
  });
});

describe('energy order create: readable output', () => {
  it('prints the order as a key/value block', async () => {
    const target = address();
    const result = await world.run(['order', 'create', target, ...RENTAL, '--expected-total', FIRST_PRICE]);
    expect(result.code).toBe(0);
    const [stored] = ordersTo(target);
    expect(result.stdout).toMatch(new RegExp(`^ID\\s+${stored?.id}$`, 'm'));
    expect(result.stdout).toMatch(/^Client request ID\s+[0-9a-f-]{36}$/m);
    expect(result.stdout).toMatch(new RegExp(`^Address\\s+${target}$`, 'm'));
    expect(result.stdout).toMatch(/^Energy\s+65,000$/m);
    expect(result.stdout).toMatch(/^Duration\s+1 h$/m);
    expect(result.stdout).toMatch(/^Total\s+3\.700000 TRX$/m);
    expect(result.stdout).toMatch(/^Status\s+pending$/m);
    expect(result.stdout).toMatch(/^Delivery final\s+no$/m);
    expect(result.stdout).toMatch(/^Created\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
    expect(() => JSON.parse(result.stdout)).toThrow();
  });
});
