/**
 * An account shared with other clients (a dashboard, another integration) on a server a version ahead:
 * orders whose client_request_id is `invoice 42`, Cyrillic with a check mark, 300 characters, or holds
 * ESC, BEL and U+202E; one in status `refunded` with a field `source` of its own; fields the spec does not
 * name on every success body. Every command that reads orders exits 0, shows nothing raw on a terminal,
 * counts each order once, and `--json` keeps what the server said. Counted at the sandbox.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import type { ForeignOrder } from '../../src/sandbox/types.js';
import { freshAddress } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { runInTerminal } from '../helpers/terminal.js';

const CONTROLS = 'esc\u001b[2J bel\u0007 rlo\u202e';
const FOREIGN: ForeignOrder[] = [
  { client_request_id: 'invoice 42' },
  { client_request_id: 'заказ №7 ✓', address: `T-not-an-address${CONTROLS}` },
  { client_request_id: 'x'.repeat(300) },
  { client_request_id: CONTROLS, status: `odd${CONTROLS}` },
  // Failed: it returned what it held, so `spend` leaves it out; its code is a formula behind a `;`.
  { client_request_id: 'failed-1', status: 'failed', failure: { code: 'ok;@SUM(1+1)', message: CONTROLS } },
  { client_request_id: 'refund-1', status: 'refunded', delivery_final: false, extra: { source: 'dashboard' } },
];
const EXTRA = { x_price_sun: 60 };
/** What must never reach a terminal raw: C0 but the line ends the CLI writes, DEL, C1, direction marks. */
const RAW =
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

const shared = worldForSuite({ foreignOrders: FOREIGN, deliverAfterMs: 300, rateLimit: false });
const newer = worldForSuite({ foreignOrders: FOREIGN, extraFields: EXTRA, deliverAfterMs: 300, rateLimit: false });

const foreignIds = FOREIGN.map((order) => order.client_request_id);
const tronEnv = (world: typeof shared) => ({
  ENERGY_TRON_NODE: world.sandbox.url,
  ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-shared-')),
});
const foreignOrders = (world: typeof shared): Order[] =>
  world.sandbox.orders().filter((order) => foreignIds.includes(order.client_request_id));

describe('a shared account: odd orders of other clients', () => {
  it('order list, --all, --json and --output csv read every order', async () => {
    for (const args of [[], ['--all'], ['--json'], ['--all', '--json']]) {
      const result = await shared.run(['order', 'list', ...args]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(RAW);
      if (args.includes('--json')) {
        const items = (JSON.parse(result.stdout) as { items: Order[] }).items;
        expect(items.map((order) => order.client_request_id)).toEqual([...foreignIds].reverse());
        expect(items[0]).toMatchObject({ status: 'refunded', source: 'dashboard' });
      }
    }
    const csv = await shared.run(['order', 'list', '--all', '--output', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const records = csv.stdout.split('\r\n').filter(Boolean);
    // The header and one record per order: no field's text breaks a row (the quoted `;` is one field).
    expect(records).toHaveLength(1 + FOREIGN.length);
    // A `;`-splitting spreadsheet starts a cell at the `@`, where the quotes mean nothing: guarded there too.
    expect(csv.stdout).toContain(`,"ok;'@SUM(1+1)"\r\n`);
    expect(csv.stdout).toContain(`,invoice 42,`);
    expect(csv.stdout).toContain(`,${'x'.repeat(300)},`);
  });

  it('spend counts them all', async () => {
    const result = await shared.run(['spend', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ orders: FOREIGN.length - 1, total_trx: '13.000000' });
    const byStatus = await shared.run(['spend', '--by', 'status']);
    expect(byStatus.code, byStatus.stderr).toBe(0);
    expect(byStatus.stdout).not.toMatch(RAW);
    expect(byStatus.stdout).toContain('refunded');
  });

  it('order get shows each one; --json keeps `source`', async () => {
    for (const order of foreignOrders(shared)) {
      const table = await shared.run(['order', 'get', order.id]);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).not.toMatch(RAW);
      const json = await shared.run(['order', 'get', order.id, '--json']);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual(order);
    }
    const refunded = foreignOrders(shared).find((order) => order.status === 'refunded')!;
    const json = await shared.run(['order', 'get', refunded.id, '--json']);
    expect(JSON.parse(json.stdout)).toHaveProperty('source', 'dashboard');
  });

  it('on a terminal nothing of theirs is raw: order list, order get, spend', async () => {
    const odd = foreignOrders(shared).find((order) => order.client_request_id === CONTROLS)!;
    for (const args of [
      ['order', 'list'],
      ['order', 'list', '--all'],
      ['order', 'get', odd.id],
      ['spend', '--by', 'address'],
    ]) {
      const { code, screen } = await runInTerminal(args, shared.env, [], 200);
      expect(code, screen).toBe(0);
      expect(screen).not.toMatch(RAW);
    }
    const { screen } = await runInTerminal(['order', 'get', odd.id], shared.env, [], 200);
    expect(screen).toContain('esc\\x1b[2J bel\\x07 rlo\\u{202e}');
    const address = freshAddress(23_005);
    const ensure = await runInTerminal(['ensure', ...rentalArgs(address, '--yes')], {
      ...shared.env,
      ...tronEnv(shared),
    });
    expect(ensure.code, ensure.screen).toBe(0);
    expect(ensure.screen).not.toMatch(RAW);
    expect(shared.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);
  });

  it('ensure buys for its own address, once, and the service too', async () => {
    const env = tronEnv(shared);
    const address = freshAddress(23_001);
    const once = await shared.run(['ensure', ...rentalArgs(address, '--yes', '--json')], { env });
    expect(once.code, once.stderr).toBe(0);
    expect(shared.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);

    const serviceAddress = freshAddress(23_002);
    const service = shared.spawn(['ensure', ...rentalArgs(serviceAddress, '--yes', '--every', '250ms', '--json')], {
      env,
    });
    const deadline = Date.now() + 20_000;
    while (service.output().stdout.split('\n').filter(Boolean).length < 2) {
      if (Date.now() > deadline) throw new Error(`no two cycles: ${service.output().stderr}`);
      await sleep(25);
    }
    service.child.kill('SIGTERM');
    const result = await service.result;
    expect(result.code, result.stderr).toBe(0);
    expect(shared.sandbox.orders().filter((order) => order.address === serviceAddress)).toHaveLength(1);
    for (const line of result.stdout.split('\n').filter(Boolean)) expect(JSON.parse(line)).not.toHaveProperty('error');
  });
});

describe('a newer server: fields the spec does not name on every success body', () => {
  it('balance, options, quote, order create, get, list and --all keep them in --json', async () => {
    const address = freshAddress(23_003);
    const env = tronEnv(newer);
    const documents = [
      ['balance', '--json'],
      ['options', '--json'],
      ['quote', ...rentalArgs(address, '--json')],
      ['order', 'create', ...rentalArgs(address, '--yes', '--json')],
      ['order', 'list', '--json'],
    ];
    for (const args of documents) {
      const result = await newer.run(args, { env });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(JSON.parse(result.stdout), args.join(' ')).toMatchObject(EXTRA);
    }
    const all = await newer.run(['order', 'list', '--all', '--json']);
    const items = (JSON.parse(all.stdout) as { items: Order[] }).items;
    expect(items.length).toBe(FOREIGN.length + 1);
    for (const item of items) expect(item).toMatchObject(EXTRA);
    const get = await newer.run(['order', 'get', items[0]!.id, '--json']);
    expect(JSON.parse(get.stdout)).toMatchObject(EXTRA);
    const wait = await newer.run(['order', 'wait', items[0]!.id, '--json']);
    expect(wait.code, wait.stderr).toBe(0);
    expect(JSON.parse(wait.stdout)).toMatchObject(EXTRA);
    const file = join(env.ENERGY_STATE_DIR, 'lines.csv');
    writeFileSync(file, `address,energy,hours\n${freshAddress(23_006)},65000,1\n`);
    const batch = await newer.run(['order', 'batch', file, '--yes', '--json'], { env });
    expect(batch.code, batch.stderr).toBe(0);
    expect(JSON.parse(batch.stdout)).toMatchObject({ status: 'created', order: EXTRA });
  });

  it('every reading command works: tables, csv, spend, ensure', async () => {
    const env = tronEnv(newer);
    for (const args of [
      ['balance'],
      ['options'],
      ['order', 'list', '--all'],
      ['order', 'list', '--output', 'csv'],
      ['spend'],
      ['ensure', ...rentalArgs(freshAddress(23_004), '--yes', '--json')],
    ]) {
      const result = await newer.run(args, { env });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    const bought = newer.sandbox.orders().filter((order) => order.address === freshAddress(23_004));
    expect(bought).toHaveLength(1);
  });
});
