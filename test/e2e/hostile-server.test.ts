/**
 * A hostile server: ESC[2J, a C1 CSI and a right-to-left override in every text field it sends. Whatever
 * the command (order get, list, recover, batch, ensure) and the form (table or --json), nothing of it
 * reaches the terminal raw; --json keeps the data exact. An address or client_request_id of any string is
 * read (the spec types both as plain strings) and shown escaped.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, runCli, type CliResult } from '../helpers/cli.js';
import { ADDRESS, OTHER_ADDRESS } from '../helpers/world.js';

const HOSTILE = '\u001b[2J\u009b31m\u202eevil\u2066';
/** What must never reach a terminal raw (line breaks aside, which the CLI writes itself). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const ORDER_ID = '2b7c1f7e-3f3a-4f1e-9d8c-0a5b6c7d8e9f';

interface Mode {
  /** Overrides for every order the server sends. */
  order: Record<string, unknown>;
  /** Order creation answers 503 (the request stays pending in the journal). */
  ordersDown: boolean;
  /** Order creation for this address is refused with a hostile Problem Details. */
  refuse?: string;
  /** The order list is empty (nothing in flight for ensure). */
  noList?: boolean;
}

let server: Server;
let origin = '';
let dir = '';
let env: Record<string, string> = {};
let mode: Mode;
const posts: string[] = [];

function order(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: ORDER_ID,
    client_request_id: 'req-1',
    address: ADDRESS,
    energy: 65000,
    duration_hours: 1,
    total_trx: '2.600000',
    status: `pending${HOSTILE}`,
    lifecycle_final: false,
    delivery_final: false,
    created_at: 1,
    updated_at: 1,
    failure: null,
    ...fields,
    ...mode.order,
  };
}

function reply(response: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  response.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

function answer(request: IncomingMessage, body: string, response: ServerResponse): void {
  const path = (request.url ?? '').split('?')[0];
  const sent = body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
  if (path === '/wallet/getaccountresource') return reply(response, 200, {});
  if (path === '/wallet/getaccount') return reply(response, 200, { address: sent.address });
  if (path === '/v1/time') return reply(response, 200, { unix_time: Math.floor(Date.now() / 1000) });
  if (path === '/v1/energy/options') {
    return reply(response, 200, {
      energy_per_portion: 1000,
      max_energy: 10_000_000,
      duration_hours: [1],
      intake_enabled: true,
    });
  }
  if (path === '/v1/balance') {
    return reply(response, 200, { available_trx: '1000.000000', held_trx: '0.000000', status: `active${HOSTILE}` });
  }
  if (path === '/v1/energy/quotes') {
    return reply(response, 200, {
      address: sent.address,
      energy: sent.energy,
      duration_hours: sent.duration_hours,
      energy_trx: '2.600000',
      activation_trx: null,
      total_trx: '2.600000',
      can_afford: true,
    });
  }
  if (path === '/v1/energy/orders' && request.method === 'POST') {
    posts.push(String(sent.client_request_id));
    if (mode.ordersDown) return reply(response, 503, {});
    if (sent.address === mode.refuse) {
      const problem = {
        type: 'about:blank',
        title: `No${HOSTILE}`,
        status: 409,
        detail: `refused${HOSTILE}`,
        code: 'X',
      };
      return reply(response, 409, problem, 'application/problem+json');
    }
    const fields = { client_request_id: sent.client_request_id, address: sent.address, energy: sent.energy };
    return reply(response, 201, order(fields));
  }
  if (path === '/v1/energy/orders')
    return reply(response, 200, { items: mode.noList ? [] : [order()], next_cursor: null });
  if (path === `/v1/energy/orders/${ORDER_ID}`) {
    return reply(response, 200, order({ failure: { code: `CODE${HOSTILE}`, message: `message${HOSTILE}` } }));
  }
  reply(response, 404, {});
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => answer(request, body, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'energy-e2e-hostile-'));
  env = {
    ...baseEnv(join(dir, 'config')),
    ENERGY_BASE_URL: origin,
    ENERGY_TRON_NODE: origin,
    ENERGY_API_KEY: 'key_hostile',
    ENERGY_API_SECRET: 'secret-hostile-0123456789',
  };
  mode = { order: {}, ordersDown: false };
  posts.length = 0;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: readonly string[]) => runCli(args, { env });

function expectEscaped(result: CliResult): void {
  expect(result.stdout).not.toMatch(RAW);
  expect(result.stderr).not.toMatch(RAW);
}

/** Every string in the JSON output that came from the server arrived whole: escaped on the wire, not altered. */
function expectExactJson(text: string): void {
  expect(text).toContain('\\u001b[2J\\u009b31m\\u202eevil\\u2066');
}

describe('a hostile server: nothing raw reaches the terminal', () => {
  it('order get, table and JSON', async () => {
    const table = await run(['order', 'get', ORDER_ID]);
    expect(table.code, table.stderr).toBe(0);
    expectEscaped(table);
    expect(table.stdout).toContain('pending\\x1b[2J\\x9b31m\\u{202e}evil');
    expect(table.stdout).toContain('CODE\\x1b[2J');
    const json = await run(['order', 'get', ORDER_ID, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expectEscaped(json);
    expectExactJson(json.stdout);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: `pending${HOSTILE}`,
      failure: { message: `message${HOSTILE}` },
    });
  });

  it('order list and order list --all, table and JSON', async () => {
    for (const args of [[], ['--all']]) {
      const table = await run(['order', 'list', ...args]);
      expect(table.code, table.stderr).toBe(0);
      expectEscaped(table);
      expect(table.stdout).toContain('pending\\x1b[2J');
      const json = await run(['order', 'list', '--json', ...args]);
      expect(json.code, json.stderr).toBe(0);
      expectEscaped(json);
      expectExactJson(json.stdout);
      expect((JSON.parse(json.stdout) as { items: { status: string }[] }).items[0]!.status).toBe(`pending${HOSTILE}`);
    }
  });

  it.each([
    ['address', { address: `${ADDRESS}${HOSTILE}` }],
    ['address with a letter base58 leaves out', { address: ADDRESS.replace(/.$/, 'O') }],
    ['client_request_id', { client_request_id: `req-1${HOSTILE}` }],
    ['client_request_id with a space', { client_request_id: 'req 1' }],
  ])('reads an order whose %s is any string (the spec types it so): exit 0, escaped', async (_name, fields) => {
    mode.order = fields;
    const [key, value] = Object.entries(fields)[0]!;
    for (const args of [
      ['order', 'get', ORDER_ID],
      ['order', 'list'],
      ['order', 'list', '--json'],
    ]) {
      const result = await run(args);
      expect(result.code, result.stderr).toBe(0);
      expectEscaped(result);
      if (args.includes('--json'))
        expect((JSON.parse(result.stdout) as { items: Record<string, unknown>[] }).items[0]![key]).toBe(value);
    }
  });

  it('order recover: the resent order, table and JSON', async () => {
    for (const json of [false, true]) {
      const id = `hostile-recover-${String(json)}`;
      mode.ordersDown = true;
      const create = [ADDRESS, '--energy', '65000', '--hours', '1', '--expected-total', '2.600000'];
      const placed = await run(['order', 'create', ...create, '--client-request-id', id, '--retries', '0']);
      expect(placed.code, placed.stderr).toBe(7);
      mode.ordersDown = false;
      const before = posts.length;
      const result = await run(['order', 'recover', id, '--yes', ...(json ? ['--json'] : [])]);
      expect(result.code, result.stderr).toBe(0);
      expect(posts.slice(before)).toEqual([id]);
      expectEscaped(result);
      if (json) expectExactJson(result.stdout);
      else expect(result.stdout).toContain('pending\\x1b[2J');
    }
  });

  it('order batch: each line placed once, table and NDJSON', async () => {
    for (const json of [false, true]) {
      const file = join(dir, `batch-${String(json)}.csv`);
      // Another energy each round: the same content would be the same batch, already ordered.
      const energy = json ? 66000 : 65000;
      writeFileSync(file, `address,energy,hours\n${ADDRESS},${energy},1\n${OTHER_ADDRESS},${energy},1\n`);
      const before = posts.length;
      const result = await run(['order', 'batch', file, '--yes', ...(json ? ['--json'] : [])]);
      expect(result.code, result.stderr).toBe(0);
      expect(posts.length - before).toBe(2);
      expectEscaped(result);
      if (json) {
        expectExactJson(result.stdout);
        const lines = result.stdout.trimEnd().split('\n');
        expect(lines.map((line) => (JSON.parse(line) as { order: { status: string } }).order.status)).toEqual([
          `pending${HOSTILE}`,
          `pending${HOSTILE}`,
        ]);
      } else expect(result.stdout).toContain('pending\\x1b[2J');
    }
  });

  it("ensure: the bought order's status and a failure's text, table and JSON", async () => {
    mode.refuse = OTHER_ADDRESS;
    mode.noList = true;
    for (const json of [false, true]) {
      const before = posts.length;
      const args = ['ensure', ADDRESS, OTHER_ADDRESS, '--energy', '65000', '--hours', '1', '--yes'];
      const result = await run([...args, ...(json ? ['--json'] : [])]);
      expect(result.code, result.stderr).toBe(9);
      expect(posts.length - before).toBe(2);
      expectEscaped(result);
      if (json) {
        expectExactJson(result.stdout);
        type Item = { bought: { status: string } | null; error: { message: string } | null };
        const items = (JSON.parse(result.stdout) as { items: Item[] }).items;
        expect(items.map((item) => item.bought?.status ?? null)).toEqual([`pending${HOSTILE}`, null]);
        // An error message is text made for people: the server's part is escaped when it is written.
        expect(items[1]!.error!.message).toContain('refused\\x1b[2J');
      } else {
        expect(result.stdout).toContain('(pending\\x1b[2J');
        expect(result.stdout).toContain('refused\\x1b[2J');
      }
    }
  });
});
