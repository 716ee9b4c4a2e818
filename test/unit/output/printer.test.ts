import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Printer } from '../../../src/output/printer.js';
import { sampleOrder } from '../../helpers/sample-order.js';
import { orderCells, ORDER_COLUMNS } from '../../../src/output/views.js';

function capture() {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const printer = new Printer(
    { stdout, stderr: new PassThrough(), stdin: Readable.from([]), env: { NO_COLOR: '1' } },
    false,
  );
  return { printer, text: () => text };
}

const order = sampleOrder({
  energy: 12_000_000_000,
  duration_hours: 168,
  total_trx: '1234567890123.123456',
  status: 'failed',
  lifecycle_final: true,
  delivery_final: true,
  created_at: 1_795_420_800,
  updated_at: 1_795_420_800,
  failure: { code: 'DELEGATION_FAILED_BECAUSE_OF_A_LONG_REASON', message: 'm' },
});

describe('Printer.table in a pipe', () => {
  it('never cuts a value, however long', async () => {
    const { printer, text } = capture();
    await printer.table({ columns: ORDER_COLUMNS, rows: [orderCells(order)] });
    expect(text()).toContain('1234567890123.123456');
    expect(text()).toContain('12,000,000,000');
    expect(text()).toMatch(/ failed +DELEGATION_FAILED_BECAUSE_OF_A_LONG_REASON +all\n/);
    expect(text()).not.toContain('…');
  });

  it('keeps one word a head and a cell, for awk and column -t: empty is -, spaces inside a value _', async () => {
    const { printer, text } = capture();
    await printer.table({
      columns: [
        { head: 'ID', width: 0 },
        { head: 'STATUS', width: 0 },
        { head: 'TOTAL_TRX', width: 0 },
        { head: 'DETAIL', width: 0 },
      ],
      rows: [
        ['a', 'in progress', '', 'free text stays whole'],
        ['b', 'done', '1.000000', ''],
      ],
    });
    const fields = text()
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/\s+/));
    expect(fields[0]).toEqual(['ID', 'STATUS', 'TOTAL_TRX', 'DETAIL']);
    expect(fields[1]).toEqual(['a', 'in_progress', '-', 'free', 'text', 'stays', 'whole']);
    expect(fields[2]).toEqual(['b', 'done', '1.000000', '-']);
  });

  it('lines up pages printed separately', async () => {
    const { printer, text } = capture();
    const short = { ...order, total_trx: '1.000000', energy: 1000, failure: null, status: 'active' };
    const table = printer.tableWriter(ORDER_COLUMNS);
    await table.write([orderCells(short)]);
    await table.write([orderCells({ ...short, energy: 65000 })]);
    const lines = text().trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]!.indexOf('1.000000')).toBe(lines[2]!.indexOf('1.000000'));
    expect(lines[0]!.indexOf('TOTAL_TRX')).toBe(lines[1]!.indexOf('1.000000'));
  });
});
