/**
 * `order drop`'s run with its services passed in (the shape every command has): a fake order list and the
 * journal in memory. A record is settled as not sent only when no order on the account carries its id.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { EnergyClient } from '../../../src/client/client.js';
import type { Order } from '../../../src/client/types.js';
import { orderDropRun } from '../../../src/commands/order-drop.js';
import type { OrderJournal } from '../../../src/journal/order-journal.js';
import { Printer } from '../../../src/output/printer.js';
import { MemoryJournal } from '../../helpers/memory-journal.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const ID = 'topup-7';
const BODY = `{"address":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t","energy":65000,"duration_hours":1,"expected_total_trx":"2.600000","client_request_id":"${ID}"}`;

async function drop(orders: Order[], begin = true) {
  const journal = new MemoryJournal();
  if (begin) await journal.begin(ID, BODY);
  let pagesRead = 0;
  const client = {
    async *orderPages() {
      pagesRead += 1;
      yield { items: orders, next_cursor: null };
    },
  };
  const stderr = new PassThrough();
  const printer = new Printer({ stdout: new PassThrough(), stderr, stdin: new PassThrough(), env: {} }, false);
  const run = orderDropRun({
    id: ID,
    client: async () => client as unknown as EnergyClient,
    journal: async () => journal as unknown as OrderJournal,
    printer,
    invocation: (...words) => ['energy', ...words].join(' '),
  });
  return { run, journal, stderr: () => String(stderr.read() ?? ''), pagesRead: () => pagesRead };
}

describe('order drop', () => {
  it('refuses when an order on the account carries the id, and leaves the record pending', async () => {
    const { run, journal } = await drop([sampleOrder({ id: 'ord-9', client_request_id: ID })]);
    await expect(run).rejects.toMatchObject({
      exitCode: 5,
      message: `order ord-9 carries client_request_id ${ID}: the server received it`,
      hint: `settle it instead: energy order recover ${ID}`,
    });
    expect(journal.find(ID)!.outcome).toBeNull();
  });

  it('settles the record as not sent when the list read back holds no order with its id', async () => {
    const { run, journal, stderr, pagesRead } = await drop([sampleOrder({ client_request_id: 'other' })]);
    await run;
    expect(pagesRead()).toBe(1);
    expect(journal.find(ID)!.outcome).toMatchObject({
      kind: 'not-sent',
      reason: 'dropped by hand: no order on the account carries its client_request_id',
    });
    expect(stderr()).toBe(`energy: dropped ${ID}: no order on the account carries it\n`);
  });

  it('refuses an id with no pending record before reading the list (exit 2)', async () => {
    const { run, pagesRead } = await drop([], false);
    await expect(run).rejects.toMatchObject({ exitCode: 2 });
    expect(pagesRead()).toBe(0);
  });
});
