import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, OrderList } from '../../src/client/types.js';
import { BIN } from '../helpers/cli.js';
import { expectNoStackTrace } from '../helpers/e2e.js';
import { createWorld, json, type World } from '../helpers/world.js';

const SEEDED = 250;
const UUID_AT_LINE_START = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s/;

let world: World;
/** The sandbox's own view, newest first; seeded orders are final, so it does not change during the file. */
let orders: Order[];

beforeAll(async () => {
  world = await createWorld({ seedOrders: SEEDED });
  orders = world.sandbox.orders();
});
afterAll(async () => world.close());

describe('energy order list', () => {
  it('prints the default page as {items, next_cursor} with --json', async () => {
    const result = await world.run(['order', 'list', '--json']);
    expect(result.code).toBe(0);
    const page = json<OrderList>(result);
    expect(Object.keys(page).sort()).toEqual(['items', 'next_cursor']);
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.length).toBeLessThan(SEEDED);
    expect(page.items).toEqual(orders.slice(0, page.items.length));
    expect(typeof page.next_cursor).toBe('string');
  });

  it('follows --cursor from a --limit 2 page to the next two orders, disjoint and newest first', async () => {
    const first = await world.run(['order', 'list', '--limit', '2', '--json']);
    expect(first.code).toBe(0);
    const page1 = json<OrderList>(first);
    expect(page1.items.map((o) => o.id)).toEqual(orders.slice(0, 2).map((o) => o.id));
    expect(page1.next_cursor).toEqual(expect.any(String));

    const second = await world.run(['order', 'list', '--limit', '2', '--cursor', page1.next_cursor!, '--json']);
    expect(second.code).toBe(0);
    const page2 = json<OrderList>(second);
    expect(page2.items.map((o) => o.id)).toEqual(orders.slice(2, 4).map((o) => o.id));
    const ids = [...page1.items, ...page2.items].map((o) => o.id);
    expect(new Set(ids).size).toBe(4);
    const created = [...page1.items, ...page2.items].map((o) => o.created_at);
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('prints every order as one JSON document with --all --json', async () => {
    const pages = world.sandbox.requestCount('/v1/energy/orders');
    const result = await world.run(['order', 'list', '--all', '--json', '--limit', '100']);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith('{"items":[')).toBe(true);
    expect(result.stdout.endsWith('],"next_cursor":null}\n')).toBe(true);
    const all = json<OrderList>(result);
    expect(Object.keys(all).sort()).toEqual(['items', 'next_cursor']);
    expect(all.next_cursor).toBeNull();
    expect(all.items).toHaveLength(SEEDED);
    const ids = all.items.map((o) => o.id);
    expect(new Set(ids).size).toBe(SEEDED);
    expect(ids).toEqual(orders.map((o) => o.id));
    expect(all.items).toEqual(orders);
    // 250 orders at 100 a page.
    expect(world.sandbox.requestCount('/v1/energy/orders') - pages).toBe(3);
  });

  it('asks for large pages with --all: 1,000, then the 100 the sandbox allows after its 400', async () => {
    const pages = world.sandbox.requestCount('/v1/energy/orders');
    const result = await world.run(['order', 'list', '--all', '--json']);
    expect(result.code).toBe(0);
    expect(json<OrderList>(result).items.map((o) => o.id)).toEqual(orders.map((o) => o.id));
    // One refused request (limit=1000), then 250 orders at 100 a page; the default 20 would take 13.
    expect(world.sandbox.requestCount('/v1/energy/orders') - pages).toBe(4);
    expect(result.stderr).toBe('');
  });

  it('prints one header line and a row per order with --all', async () => {
    const result = await world.run(['order', 'list', '--all']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter((line) => line.trim() !== '');
    expect(lines.filter((line) => /^ID\s+CREATED\s+ADDRESS/.test(line))).toHaveLength(1);
    expect(lines[0]).toMatch(/^ID\s+CREATED\s+ADDRESS/);
    const rows = lines.filter((line) => UUID_AT_LINE_START.test(line));
    expect(rows).toHaveLength(SEEDED);
    expect(lines).toHaveLength(SEEDED + 1);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(orders.map((o) => o.id));
    expect(result.stderr).not.toMatch(/more:/);
  });

  it('prints a table of one page, with the command for the next page on stderr', async () => {
    const result = await world.run(['order', 'list', '--limit', '3']);
    expect(result.code).toBe(0);
    const rows = result.stdout.split('\n').filter((line) => UUID_AT_LINE_START.test(line));
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(orders.slice(0, 3).map((o) => o.id));
    expect(result.stderr).toMatch(/^more: energy order list --limit 3 --cursor \S+$/m);
    expect(result.stdout).not.toMatch(/more:/);
  });

  it.each([
    ['--limit 0', ['--limit', '0']],
    ['--limit abc', ['--limit', 'abc']],
    ["--cursor ''", ['--cursor', '']],
  ])('refuses %s with exit 2 before sending anything', async (_case, args) => {
    const before = world.sandbox.requestCount();
    const result = await world.run(['order', 'list', ...args]);
    expect(result.code).toBe(2);
    expect(world.sandbox.requestCount()).toBe(before);
    expect(result.stdout).toBe('');
    expectNoStackTrace(result);
  });

  it('exits 2 on a cursor the server rejects (400)', async () => {
    const before = world.sandbox.requestCount('/v1/energy/orders');
    const result = await world.run(['order', 'list', '--cursor', 'zzzz']);
    expect(result.code).toBe(2);
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(before + 1);
    expect(result.stderr).toMatch(/cursor/);
    expect(result.stdout).toBe('');
    expectNoStackTrace(result);
  });
});

describe('energy order get', () => {
  it('prints one order as JSON', async () => {
    const order = orders[7]!;
    const result = await world.run(['order', 'get', order.id, '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual(order);
  });

  it('prints one order as a key/value block', async () => {
    const order = orders[7]!;
    const result = await world.run(['order', 'get', order.id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^ID\\s+${order.id}$`, 'm'));
    expect(result.stdout).toMatch(new RegExp(`^Client request ID\\s+${order.client_request_id}$`, 'm'));
    expect(result.stdout).toMatch(new RegExp(`^Total\\s+${order.total_trx.replace('.', '\\.')} TRX$`, 'm'));
    expect(result.stdout).toMatch(new RegExp(`^Status\\s+${order.status}$`, 'm'));
    expect(result.stdout).toMatch(/^Lifecycle final\s+yes$/m);
  });

  it('exits 4 for an id the server does not know (404)', async () => {
    const before = world.sandbox.requestCount();
    const result = await world.run(['order', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(4);
    expect(world.sandbox.requestCount()).toBeGreaterThan(before);
    expect(result.stdout).toBe('');
    expectNoStackTrace(result);
  });

  it('refuses an id that is not a UUID with exit 2 before sending anything', async () => {
    const before = world.sandbox.requestCount();
    const result = await world.run(['order', 'get', 'not-a-uuid']);
    expect(result.code).toBe(2);
    expect(world.sandbox.requestCount()).toBe(before);
    expect(result.stdout).toBe('');
    expectNoStackTrace(result);
  });
});

describe('order list --all when a page fails midway', () => {
  it('ends the JSON validly at the failed page and says how to read on', async () => {
    const path = '/v1/energy/orders';
    world.sandbox.inject({ kind: 'delay', ms: 0, match: { method: 'GET', path } });
    world.sandbox.inject({ kind: 'status', status: 503, times: 3, match: { method: 'GET', path } });
    const failed = await world.run([
      '--base-url',
      world.sandbox.url,
      'order',
      'list',
      '--all',
      '--json',
      '--limit',
      '100',
      '--retries',
      '0',
    ]);
    world.sandbox.clearFaults();
    expect(failed.code).toBe(7);
    const partial = JSON.parse(failed.stdout) as { items: { id: string }[]; next_cursor: string | null };
    expect(partial.items).toHaveLength(100);
    expect(partial.next_cursor).not.toBeNull();
    const report = JSON.parse(failed.stderr) as { error: { hint: string } };
    const command = /^read on with: energy (.*)$/.exec(report.error.hint)?.[1];
    // The same account, output and page size: the command is runnable as printed.
    expect(command).toBe(
      `--base-url ${world.sandbox.url} --json order list --all --limit 100 --cursor ${partial.next_cursor}`,
    );

    const rest = await world.run(command!.split(' '));
    expect(rest.code).toBe(0);
    const remaining = (JSON.parse(rest.stdout) as { items: { id: string }[] }).items;
    const ids = new Set([...partial.items, ...remaining].map((o) => o.id));
    expect(ids.size).toBe(world.sandbox.orders().length);
  });

  it('still writes a valid document when the first page already fails, as for a later page', async () => {
    world.sandbox.inject({
      kind: 'status',
      status: 503,
      times: 2,
      match: { method: 'GET', path: '/v1/energy/orders' },
    });
    const failed = await world.run(['order', 'list', '--all', '--json', '--retries', '0']);
    world.sandbox.clearFaults();
    expect(failed.code).toBe(7);
    expect(JSON.parse(failed.stdout)).toEqual({ items: [], next_cursor: null });
  });

  it('--output csv: the command that reads on does not repeat the header, and runs as printed', async () => {
    const page = await world.run(['order', 'list', '--output', 'csv', '--limit', '2']);
    expect(page.code).toBe(0);
    const command = /^more: energy (.*)$/m.exec(page.stderr)?.[1];
    expect(command).toMatch(/^order list --limit 2 --output csv --cursor \S+ \| tail -n \+2$/);
    // Through a shell, as a user pastes it (asynchronously: the sandbox answers from this process).
    const shell = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" ${command!}`], { env: world.env });
    let stdout = '';
    shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const status = await new Promise((resolve) => shell.on('close', resolve));
    expect(status).toBe(0);
    const records = stdout.trimEnd().split('\r\n');
    expect(records).toHaveLength(2);
    expect(records.map((record) => record.split(',')[0])).toEqual(orders.slice(2, 4).map((o) => o.id));
  });
});
