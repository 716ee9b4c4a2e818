/**
 * A pending record that parses but whose order body is garbled: reported as damaged like any other
 * (listed with its path, outcome unknown), never a crash; and its id is refused before any quote.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoStackTrace, freshAddress } from '../helpers/e2e.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { createWorld, json, type World } from '../helpers/world.js';

const ORDERS = '/v1/energy/orders';
const QUOTES = '/v1/energy/quotes';
const ADDRESS = freshAddress(9501);
const ID = 'garbled-body-1';
let world: World;
let path: string;

beforeAll(async () => {
  world = await createWorld();
  // A 503 leaves the outcome unknown: the record stays pending.
  world.sandbox.inject({ kind: 'status', status: 503, match: { method: 'POST', path: ORDERS } });
  const first = await world.run(['--retries', '0', ...orderCreateArgs(ADDRESS, '--yes', '--client-request-id', ID)]);
  expect(first.code, first.stderr).toBe(7);
  world.sandbox.clearFaults();
  const pending = join(world.stateDir, 'journal', 'pending');
  const [name] = readdirSync(pending).filter((n) => n.endsWith('.json'));
  path = join(pending, name!);
  const record = JSON.parse(readFileSync(path, 'utf8')) as { body: string };
  // Still a record; its body no longer holds an order (energy a word).
  writeFileSync(path, JSON.stringify({ ...record, body: record.body.replace('"energy":65000', '"energy":"lots"') }));
});
afterAll(async () => world.close());

describe('a pending record with a garbled body', () => {
  it('order pending lists it as unreadable, with its path and why', async () => {
    const result = await world.run(['order', 'pending', '--json']);
    expectNoStackTrace(result);
    expect(result.code, result.stderr).not.toBe(1);
    const listed = json<{ unreadable: { path: string; reason: string }[] }>(result).unreadable;
    expect(listed).toEqual([expect.objectContaining({ path, reason: expect.stringMatching(/order body is garbled/) })]);
  });

  it('order recover reports it and does not crash', async () => {
    const posts = world.sandbox.requestCount(ORDERS, 'POST');
    const result = await world.run(['order', 'recover', '--yes']);
    expectNoStackTrace(result);
    expect(result.code, result.stderr).not.toBe(1);
    expect(result.stderr + result.stdout).toContain(path);
    expect(world.sandbox.requestCount(ORDERS, 'POST')).toBe(posts);
  });

  it('order create with its id: refused (exit 5) before any quote or order', async () => {
    const quotes = world.sandbox.requestCount(QUOTES);
    const posts = world.sandbox.requestCount(ORDERS, 'POST');
    const result = await world.run(orderCreateArgs(ADDRESS, '--yes', '--client-request-id', ID));
    expectNoStackTrace(result);
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toContain(`client_request_id ${ID} is unreadable`);
    expect(result.stderr).toContain(path);
    expect(world.sandbox.requestCount(QUOTES)).toBe(quotes);
    expect(world.sandbox.requestCount(ORDERS, 'POST')).toBe(posts);
  });
});

describe('energy api POST /v1/energy/orders with a body that is not an order', () => {
  it('is refused before it is journaled or sent (exit 2): the journal holds only order bodies', async () => {
    const posts = world.sandbox.requestCount(ORDERS, 'POST');
    const args = ['api', 'POST', ORDERS, '-f', 'client_request_id=api-not-an-order', '-f', `address=${ADDRESS}`];
    const result = await world.run([
      ...args,
      '-f',
      'energy=65000',
      '-F',
      'duration_hours=1',
      '-f',
      'expected_total_trx=3.7',
    ]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('needs an order body');
    expect(world.sandbox.requestCount(ORDERS, 'POST')).toBe(posts);
    const pending = readdirSync(join(world.stateDir, 'journal', 'pending'));
    expect(pending.filter((n) => n.endsWith('.json'))).toHaveLength(1); // the garbled one above, alone
  });
});
