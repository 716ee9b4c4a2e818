/** Tables on a terminal: sized to content, fitted to the width step by step; in a pipe, the full form. */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fitRow, planFit, spills, type Column } from '../../../src/output/fit-table.js';
import { Printer } from '../../../src/output/printer.js';
import { visibleWidth } from '../../../src/output/text-width.js';
import { orderCells, ORDER_COLUMNS } from '../../../src/output/views.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const ID = '2b7c1f7e-3f3a-4f1e-9d8c-0a5b6c7d8e9f';
const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** 2026-11-23 09:15 UTC: the created_at of every sample order. */
const CREATED = Date.UTC(2026, 10, 23, 9, 15, 2) / 1000;

function printerOn(columns: number | undefined, env: NodeJS.ProcessEnv = {}) {
  const stdout = Object.assign(new PassThrough(), { isTTY: columns !== undefined, columns });
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const terminal = { stdout, stderr: new PassThrough(), stdin: Readable.from([]), env: { NO_COLOR: '1', ...env } };
  return { printer: new Printer(terminal, false), lines: () => text.trimEnd().split('\n') };
}

const orders = [
  sampleOrder({ id: ID, address: ADDRESS, created_at: CREATED, status: 'delivered', delivery_final: true }),
  sampleOrder({
    id: '9f0e1d2c-3b4a-4596-8877-665544332211',
    created_at: CREATED,
    status: 'failed',
    failure: { code: 'INSUFFICIENT_BALANCE', message: 'm' },
    lifecycle_final: true,
    delivery_final: true,
  }),
];

async function orderTable(width: number | undefined, env: NodeJS.ProcessEnv = { LANG: 'en_US.UTF-8' }, shown = orders) {
  const { printer, lines } = printerOn(width, { TZ: 'UTC', ...env });
  await printer.table({ columns: ORDER_COLUMNS, rows: shown.map(orderCells) });
  return lines();
}

describe('order list on a terminal', () => {
  it('keeps the full form when it fits, sized to content rather than padded', async () => {
    const lines = await orderTable(200);
    // CREATED is as wide as its value (20 in UTC), not padded to 25 as in a pipe.
    expect(lines[0]).toMatch(/^ID {36}CREATED {15}ADDRESS/);
    expect(lines[1]).toContain(ID);
    expect(lines[1]).toContain(ADDRESS);
  });

  it.each([120, 100, 80])('fits %i columns, every amount whole', async (width) => {
    const lines = await orderTable(width);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
    expect(lines.join('\n')).toContain('2.600000');
    expect(lines.join('\n')).toContain('65,000');
  });

  it('shortens the date first, then the id, then the address; drops HOURS at 80', async () => {
    const delivered = orders.slice(0, 1);
    const at150 = await orderTable(150, undefined, delivered);
    expect(at150[1]).toMatch(/^2b7c1f7e-3f3a-4f1e-9d8c-0a5b6c7d8e9f {2}2026-11-23T09:15:02Z {2}TR7NHq/);
    const at141 = await orderTable(141, undefined, delivered);
    expect(at141[1]).toMatch(/^2b7c1f7e-3f3a-4f1e-9d8c-0a5b6c7d8e9f {2}11-23 09:15 {2}TR7NHq/);
    const at120 = await orderTable(129, undefined, delivered);
    expect(at120[0]!.split(/\s{2,}/)).toEqual([
      'ID',
      'CREATED',
      'ADDRESS',
      'ENERGY',
      'HOURS',
      'TOTAL_TRX',
      'STATUS',
      'FAILURE',
      'FINAL',
    ]);
    expect(at120[1]).toMatch(/^2b7c1f7e {2}11-23 09:15 {2}TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t {2}65,000/);
    const at80 = await orderTable(80, undefined, delivered);
    // FINAL goes before FAILURE: a failure's code says more than which end an order reached.
    expect(at80[0]!.split(/\s{2,}/)).toEqual(['ID', 'CREATED', 'ADDRESS', 'ENERGY', 'TOTAL_TRX', 'STATUS', 'FAILURE']);
    expect(at80[1]).toMatch(/^2b7c1f7e {2}11-23 09:15 {2}TR7NHq…gjLj6t {2}65,000 {2}2\.600000 +delivered *$/);
  });

  it('cuts a long status with "..." under a locale that is not UTF-8', async () => {
    const lines = await orderTable(60, { LANG: 'C' });
    expect(lines[2]).toContain('TR7NHq...gjLj6t');
    // At 60 the failure's column stays, its code cut with "..." (and whole on stderr, see below); ENERGY goes.
    expect(lines[0]!.split(/\s{2,}/)).toEqual(['ID', 'ADDRESS', 'TOTAL_TRX', 'STATUS', 'FAILURE']);
    expect(lines[2]).toMatch(/ {2}failed +INSUFFIC\.\.\.$/);
    expect(lines.join('')).not.toContain('…');
  });

  it('takes COLUMNS over the terminal width', async () => {
    const lines = await orderTable(200, { LANG: 'en_US.UTF-8', COLUMNS: '80' });
    expect(lines[1]).toMatch(/^2b7c1f7e {2}/);
  });

  it('shows everything whole in a pipe, whatever COLUMNS says', async () => {
    const lines = await orderTable(undefined, { COLUMNS: '60' });
    expect(lines[1]).toContain(ID);
    expect(lines[1]).toContain(ADDRESS);
    // The status and the failure's code in cells of their own, as JSON and CSV keep them; `-` for none.
    expect(lines[2]).toMatch(/ failed +INSUFFICIENT_BALANCE +all$/);
    expect(lines[1]).toMatch(/ delivered +- +delivery$/);
    expect(lines[0]).toMatch(/ STATUS +FAILURE +FINAL$/);
    expect(lines[0]).toMatch(/^ID {36}CREATED {20}ADDRESS/);
  });
});

describe('planFit', () => {
  const columns: Column[] = [
    { head: 'A', width: 3 },
    { head: 'NOTE', width: 0, cut: 1 },
  ];

  it("gives a streamed table's free-text column the rest of the line, and cuts later rows to it", () => {
    const plan = planFit(columns, [['aaa', 'short']], { available: 20, ellipsis: '…', streamed: true });
    expect(plan.widths).toEqual([3, 15]);
    expect(fitRow(columns, plan, ['bbb', 'a much longer note than fits'])).toEqual([['bbb', 'a much longer …']]);
  });

  it('never shortens a column that has no short form, even past the width', () => {
    const plan = planFit([{ head: 'TOTAL', width: 0 }], [['123456789.123456']], {
      available: 5,
      ellipsis: '…',
      streamed: false,
    });
    expect(fitRow([{ head: 'TOTAL', width: 0 }], plan, ['123456789.123456'])).toEqual([['123456789.123456']]);
  });

  it('sizes a streamed table to its first page when its minimum widths cannot fit the screen (60 columns)', () => {
    const delegating = orderCells(sampleOrder({ id: ID, address: ADDRESS, created_at: CREATED, status: 'delegating' }));
    const plan = planFit(ORDER_COLUMNS, [delegating], { available: 60, ellipsis: '…', streamed: true });
    const [line] = fitRow(ORDER_COLUMNS, plan, delegating);
    const width = plan.widths.reduce((sum, w) => sum + w, 0) + 2 * (plan.widths.length - 1);
    expect(width).toBeLessThanOrEqual(60);
    expect(line).toEqual(['2b7c1f7e', 'TR7NHq…gjLj6t', '2.600000', 'delegating', '']);
  });

  it('writes a cut value of a spilling column whole on its own line, and only a cut one', () => {
    const spilling: Column[] = [
      { head: 'LINE', width: 0 },
      { head: 'DETAIL', width: 0, cut: 1, spill: (cell, row) => `line ${row[0]}: ${cell}` },
    ];
    const rows = [
      ['1', 'fine'],
      ['2', 'a reason far too long for the room the screen leaves it'],
    ];
    const plan = planFit(spilling, rows, { available: 20, ellipsis: '…', streamed: false });
    expect(rows.map((row) => fitRow(spilling, plan, row))).toEqual([[['1', 'fine']], [['2', 'a reason far …']]]);
    expect(rows.flatMap((row) => spills(spilling, plan, row))).toEqual([`line 2: ${rows[1]![1]}`]);
  });

  it('wraps a wrapping column on words into more lines, the other columns blank', () => {
    const wrapping: Column[] = [
      { head: 'CHECK', width: 0 },
      { head: 'DETAIL', width: 0, wrap: 1 },
    ];
    const row = ['api', 'http://127.0.0.1:8787 answers GET /v1/time, reached directly'];
    const plan = planFit(wrapping, [row], { available: 30, ellipsis: '…', streamed: false });
    expect(fitRow(wrapping, plan, row)).toEqual([
      ['api', 'http://127.0.0.1:8787'],
      ['', 'answers GET /v1/time,'],
      ['', 'reached directly'],
    ]);
    expect(spills(wrapping, plan, row)).toEqual([]);
  });

  it('keeps a cut column at 10 columns at least', () => {
    const plan = planFit(columns, [['aaaaaaaaaa', 'a note of some length']], {
      available: 15,
      ellipsis: '…',
      streamed: false,
    });
    expect(plan.cutAt[1]).toBe(10);
  });
});

describe('other tables on a narrow terminal', () => {
  it('ensure: the order id in a result takes its short form (without its status) before the result is cut', async () => {
    const { ensureTable } = await import('../../../src/output/ensure-views.js');
    const { printer, lines } = printerOn(100, { LANG: 'en_US.UTF-8' });
    const row = {
      address: ADDRESS,
      available: 965_000,
      in_flight: 0,
      target: 1_900_000,
      reason: 'bought',
      to_buy: 935_000,
      total_trx: '37.400000',
      capped: false,
      bought: { id: ID, status: 'pending' },
      error: null,
    };
    await printer.table(ensureTable([row]));
    expect(lines()[1]).toMatch(/^TR7NHq…gjLj6t {2}965,000 .* {2}37\.400000 {2}bought 2b7c1f7e$/);
  });

  it('clears a progress line on the same screen before writing a row', async () => {
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    const stderr = Object.assign(new PassThrough(), { isTTY: true });
    const screen: string[] = [];
    stdout.on('data', (chunk: Buffer) => screen.push(`out:${chunk.toString()}`));
    stderr.on('data', (chunk: Buffer) => screen.push(`err:${chunk.toString()}`));
    const printer = new Printer({ stdout, stderr, stdin: Readable.from([]), env: { NO_COLOR: '1' } }, false);
    printer.status('batch: 1/2 lines');
    await printer.tableWriter([{ head: 'LINE', width: 4 }]).write([['2']]);
    expect(screen).toEqual(['err:\r\u001b[Kbatch: 1/2 lines', 'err:\r\u001b[K', 'out:LINE\n2\n']);
  });
});

describe('order list: a failure is never lost on a narrow terminal', () => {
  const failed = orderCells(orders[1]!);

  it('keeps the failure column at 60 columns, its code cut there and written whole on stderr', () => {
    const plan = planFit(ORDER_COLUMNS, [failed], { available: 60, ellipsis: '…', streamed: true });
    expect(plan.shown.map((index) => ORDER_COLUMNS[index]!.head)).toEqual([
      'ID',
      'ADDRESS',
      'TOTAL_TRX',
      'STATUS',
      'FAILURE',
    ]);
    expect(fitRow(ORDER_COLUMNS, plan, failed)[0]!.at(-1)).toMatch(/^INSUFFIC[A-Z_]*…$/);
    expect(spills(ORDER_COLUMNS, plan, failed)).toEqual([
      'energy: order 9f0e1d2c-3b4a-4596-8877-665544332211: failed: INSUFFICIENT_BALANCE',
    ]);
    // An order without a failure has no failure line (its status, cut at this width, is said whole).
    expect(spills(ORDER_COLUMNS, plan, orderCells(orders[0]!))).toEqual([`energy: order ${ID}: status delivered`]);
  });

  it('writes a status it cuts whole on stderr', () => {
    const odd = orderCells(sampleOrder({ id: ID, created_at: CREATED, status: 'waiting_for_the_provider_to_confirm' }));
    const plan = planFit(ORDER_COLUMNS, [odd], { available: 60, ellipsis: '…', streamed: true });
    expect(spills(ORDER_COLUMNS, plan, odd)).toEqual([
      `energy: order ${ID}: status waiting_for_the_provider_to_confirm`,
    ]);
  });

  it('says nothing in a pipe, where every value is whole', () => {
    const plan = planFit(ORDER_COLUMNS, [failed], { available: undefined, ellipsis: '…', streamed: true });
    expect(spills(ORDER_COLUMNS, plan, failed)).toEqual([]);
  });
});
