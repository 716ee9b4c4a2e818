/**
 * `order list --output csv` and `energy spend`, against a node:http server that serves hand-made orders
 * (amounts where floats drift, text that needs CSV quoting) in pages of two, and counts the pages asked for.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { until } from '../helpers/e2e.js';
import { sampleOrder } from '../helpers/sample-order.js';
import { startScriptedServer, type ScriptedServer, type Seen } from '../helpers/http-server.js';
import { createWorld, OTHER_ADDRESS, type World } from '../helpers/world.js';

const DAY = 86_400;
/** 2026-11-20T12:00:00Z, in seconds. */
const NOV20 = 1_795_176_000;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Newest first, as the API lists them. Summed as floats, the total would come out 37037036704.003700. */
const ORDERS: Order[] = [
  sampleOrder({ id: uuid(1), total_trx: '0.100000', created_at: NOV20 + 2 * DAY, client_request_id: '=1+2' }),
  sampleOrder({ id: uuid(2), total_trx: '0.200000', created_at: NOV20 + 2 * DAY, address: OTHER_ADDRESS }),
  sampleOrder({ id: uuid(3), total_trx: '12345678901.234567', created_at: NOV20 + DAY, status: 'a,b "c"\nd' }),
  sampleOrder({
    id: uuid(4),
    total_trx: '5.000000',
    created_at: NOV20 + DAY,
    status: 'failed',
    failure: { code: 'NO,DELIVERY', message: 'x' },
  }),
  sampleOrder({ id: uuid(5), total_trx: '12345678901.234567', created_at: NOV20 }),
  sampleOrder({ id: uuid(6), total_trx: '12345678901.234567', created_at: NOV20, status: 'line\nbreak' }),
  sampleOrder({ id: uuid(7), total_trx: '1.000000', created_at: NOV20 - 5 * DAY }),
  sampleOrder({ id: uuid(8), total_trx: '1.000000', created_at: NOV20 - 6 * DAY }),
  // Before 2026-11-01, which the reports below take as --since: a page that must never be asked for.
  sampleOrder({ id: uuid(9), total_trx: '1.000000', created_at: NOV20 - 30 * DAY }),
  sampleOrder({ id: uuid(10), total_trx: '1.000000', created_at: NOV20 - 31 * DAY }),
];
const SINCE = ['--since', '2026-11-01'];
const PAGE = 2;

let world: World;
let server: ScriptedServer;
/** When set, the answer to the page at this offset waits until the promise settles. */
let holdPage: { offset: number; release: Promise<void> } | undefined;

function listing(request: Seen, response: ServerResponse): void {
  const offset = Number(new URL(request.url, 'http://x').searchParams.get('cursor') ?? '0');
  const next = offset + PAGE < ORDERS.length ? String(offset + PAGE) : null;
  const answer = () =>
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ items: ORDERS.slice(offset, offset + PAGE), next_cursor: next }));
  if (holdPage?.offset === offset) void holdPage.release.then(answer);
  else answer();
}

beforeAll(async () => {
  world = await createWorld();
  server = await startScriptedServer();
  server.script(listing);
});
beforeEach(() => {
  server.seen.length = 0;
  holdPage = undefined;
});
afterAll(async () => {
  await server.close();
  await world.close();
});

const run = (args: string[]) => world.run(args, { env: { ENERGY_BASE_URL: server.url.origin } });
const listRequests = () => server.seen.filter((r) => r.url.startsWith('/v1/energy/orders')).length;

/** A small RFC 4180 reader: records end in CRLF, quoted fields may hold commas, quotes and line feeds. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      record.push(field);
      field = '';
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      records.push([...record, field]);
      record = [];
      field = '';
      i += 1;
    } else {
      field += c;
    }
  }
  expect(field).toBe('');
  return records;
}

describe('order list --output csv', () => {
  it('writes the contract columns, RFC 4180 quoting, ISO UTC times, and neutralises formulas', async () => {
    const result = await run(['order', 'list', '--all', '--output', 'csv']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\r\n')[0]).toBe(
      'id,client_request_id,address,energy,duration_hours,total_trx,status,lifecycle_final,delivery_final,created_at,updated_at,failure_code',
    );
    const [head, ...rows] = parseCsv(result.stdout);
    expect(rows).toHaveLength(ORDERS.length);
    const byId = (n: number) => rows.find((row) => row[0] === uuid(n))!;
    expect(byId(1)[1]).toBe("'=1+2");
    expect(byId(3)[6]).toBe('a,b "c"\nd');
    expect(byId(6)[6]).toBe('line\nbreak');
    expect(result.stdout).toContain(',"line\nbreak",');
    expect(byId(4)[head!.indexOf('failure_code')]).toBe('NO,DELIVERY');
    expect(byId(5)[9]).toBe('2026-11-20T12:00:00.000Z');
    expect(byId(5).slice(3, 9)).toEqual(['65000', '1', '12345678901.234567', 'pending', 'false', 'false']);
    expect(listRequests()).toBe(ORDERS.length / PAGE);
  });

  it('streams: the first page is on stdout while the second is still unanswered', async () => {
    let release!: () => void;
    holdPage = { offset: PAGE, release: new Promise<void>((resolve) => (release = resolve)) };
    const running = world.spawn(['order', 'list', '--all', '--output', 'csv'], {
      env: { ENERGY_BASE_URL: server.url.origin },
    });
    await until('the first page is on stdout', () => running.output().stdout.includes(uuid(2)));
    expect(running.output().stdout).not.toContain(uuid(3));
    release();
    const result = await running.result;
    expect(result.code).toBe(0);
    expect(parseCsv(result.stdout)).toHaveLength(ORDERS.length + 1);
  });

  it('refuses --json with --output csv (exit 2) before any request', async () => {
    const result = await run(['order', 'list', '--output', 'csv', '--json']);
    expect(result.code).toBe(2);
    expect(listRequests()).toBe(0);
  });
});

describe('energy spend', () => {
  it('sums exactly (no float drift), skips failed orders, and groups by UTC day', async () => {
    const result = await run(['spend', ...SINCE, '--by', 'day', '--json']);
    expect(result.code, result.stderr).toBe(0);
    // Page 5 holds the first order before --since: it is read, and nothing after it would be.
    expect(listRequests()).toBe(5);
    expect(JSON.parse(result.stdout)).toEqual({
      since: '2026-11-01T00:00:00.000Z',
      until: null,
      total_trx: '37037036706.003701',
      orders: 7,
      energy: 455_000,
      groups: [
        { key: '2026-11-14', orders: 1, energy: 65_000, total_trx: '1.000000' },
        { key: '2026-11-15', orders: 1, energy: 65_000, total_trx: '1.000000' },
        { key: '2026-11-20', orders: 2, energy: 130_000, total_trx: '24691357802.469134' },
        { key: '2026-11-21', orders: 1, energy: 65_000, total_trx: '12345678901.234567' },
        { key: '2026-11-22', orders: 2, energy: 130_000, total_trx: '0.300000' },
      ],
    });
    // Without a TRON node configured, rent or burn is left out and no node is asked.
    expect(result.stdout).not.toContain('burn_trx');
  });

  it('with a TRON node: burn_trx for all the energy at its price, and saved_trx = burn_trx − total_trx, exactly', async () => {
    world.sandbox.setEnergyFee(210);
    const node = () => world.sandbox.tronRequests().filter((r) => r.path === '/wallet/getchainparameters').length;
    const before = node();
    const withNode = (args: string[]) =>
      world.run(args, { env: { ENERGY_BASE_URL: server.url.origin, ENERGY_TRON_NODE: world.sandbox.url } });
    const result = await withNode(['spend', '--since', '2026-11-22', '--by', 'address', '--json']);
    expect(result.code, result.stderr).toBe(0);
    // Orders 1 and 2: 130,000 energy at 210 sun is 27.300000 TRX; they cost 0.300000.
    expect(JSON.parse(result.stdout)).toMatchObject({
      total_trx: '0.300000',
      energy: 130_000,
      burn_trx: '27.300000',
      saved_trx: '27.000000',
      groups: [
        { key: OTHER_ADDRESS, energy: 65_000, total_trx: '0.200000', burn_trx: '13.650000', saved_trx: '13.450000' },
        {
          key: ORDERS[0]!.address,
          energy: 65_000,
          total_trx: '0.100000',
          burn_trx: '13.650000',
          saved_trx: '13.550000',
        },
      ],
    });
    expect(node() - before).toBe(1);
    // Renting dearer than burning: a negative saving, exact.
    const dear = await withNode(['spend', '--since', '2026-11-21', '--until', '2026-11-22', '--output', 'csv']);
    expect(parseCsv(dear.stdout)).toEqual([
      ['since', 'until', 'orders', 'energy', 'total_trx', 'burn_trx', 'saved_trx'],
      [
        '2026-11-21T00:00:00.000Z',
        '2026-11-22T00:00:00.000Z',
        '1',
        '65000',
        '12345678901.234567',
        '13.650000',
        '-12345678887.584567',
      ],
    ]);
    const table = await withNode(['spend', '--since', '2026-11-22']);
    expect(table.stdout).toMatch(/^Burn instead +27\.300000 TRX$/m);
    expect(table.stdout).toMatch(/^Saved +27\.000000 TRX$/m);
    world.sandbox.setEnergyFee(100);
  });

  it('stops paging at --since: only the pages that reach it are read', async () => {
    const result = await run(['spend', '--since', '2026-11-20', '--until', '2026-11-22', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      since: '2026-11-20T00:00:00.000Z',
      until: '2026-11-22T00:00:00.000Z',
      total_trx: '37037036703.703701',
      orders: 3,
    });
    // Orders 1-6 are on pages 1-3; order 7, on page 4, is the first before --since.
    expect(listRequests()).toBe(4);
  });

  it('--since takes an order created at that instant, --until leaves one out', async () => {
    // Orders 5 and 6 are created at exactly 2026-11-20T12:00:00Z, orders 1 and 2 at exactly 2026-11-22T12:00:00Z.
    const result = await run(['spend', '--since', '2026-11-20T12:00:00Z', '--until', '2026-11-22T12:00:00Z', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      since: '2026-11-20T12:00:00.000Z',
      until: '2026-11-22T12:00:00.000Z',
      total_trx: '37037036703.703701',
      orders: 3,
    });
  });

  it('writes CSV by address and a table', async () => {
    const csv = await run(['spend', ...SINCE, '--by', 'address', '--output', 'csv']);
    expect(csv.code).toBe(0);
    expect(parseCsv(csv.stdout)).toEqual([
      ['key', 'orders', 'energy', 'total_trx'],
      [OTHER_ADDRESS, '1', '65000', '0.200000'],
      [ORDERS[0]!.address, '6', '390000', '37037036705.803701'],
    ]);
    const table = await run(['spend', ...SINCE, '--by', 'status']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^total\s+7\s+37037036706\.003701\s*$/m);
  });

  it('refuses a date-time without a zone (exit 2), and --since after --until', async () => {
    expect((await run(['spend', '--since', '2026-11-20T10:00'])).code).toBe(2);
    expect((await run(['spend', '--since', '2026-11-21', '--until', '2026-11-20'])).code).toBe(2);
    expect(listRequests()).toBe(0);
  });
});
