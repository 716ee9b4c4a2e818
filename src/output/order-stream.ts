/**
 * `order list --all`: writes orders as they arrive, page by page, so that memory does not grow with the
 * number of orders. The JSON form is one document: {"items":[…],"next_cursor":null}.
 */
import type { Order } from '../client/types.js';
import type { Printer } from './printer.js';
import { ORDER_COLUMNS, ORDER_COLUMN_WIDTHS, orderCells } from './views.js';

export async function streamOrdersJson(printer: Printer, orders: AsyncIterable<Order>): Promise<void> {
  let count = 0;
  let buffer = '{"items":[';
  for await (const order of orders) {
    buffer += `${count === 0 ? '' : ','}${JSON.stringify(order)}`;
    count += 1;
    // Write in chunks of about 64 KiB: fewer syscalls than one write an order, bounded memory.
    if (buffer.length >= 65_536) {
      await printer.write(buffer);
      buffer = '';
    }
  }
  await printer.write(`${buffer}],"next_cursor":null}\n`);
}

const TABLE_BATCH = 100;

export async function streamOrdersTable(printer: Printer, orders: AsyncIterable<Order>): Promise<void> {
  let batch: string[][] = [];
  let printedAny = false;
  const flush = async () => {
    await printer.table({ head: ORDER_COLUMNS, widths: ORDER_COLUMN_WIDTHS, rows: batch, showHead: !printedAny });
    printedAny = true;
    batch = [];
  };
  for await (const order of orders) {
    batch.push(orderCells(order));
    if (batch.length >= TABLE_BATCH) await flush();
  }
  if (batch.length > 0 || !printedAny) {
    if (batch.length === 0) printer.note('no orders');
    else await flush();
  }
}
