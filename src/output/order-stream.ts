/**
 * `order list --all`: writes orders as their pages arrive, so that memory does not grow with the number of
 * orders, in both forms. The JSON form is one document, {"items":[…],"next_cursor":null}; when a page fails
 * (the first one too), or the listing is stopped early (`stop` aborted), the document still ends validly,
 * with the orders read so far and next_cursor at the page not read.
 */
import type { OrderList } from '../client/types.js';
import type { Printer } from './printer.js';
import { ORDER_COLUMNS, orderCells } from './views.js';
import { ORDER_CSV_COLUMNS, orderCsvFields } from './csv.js';

/** Where the listing stands: the cursor of the next page to read (null for the first page without one). */
export interface ListingProgress {
  resumeCursor: string | null;
  ordersWritten: number;
  /** Aborted from outside (e.g. on Ctrl-C): the pages end early, and the listing says where it stopped. */
  stop?: AbortSignal | undefined;
}

/** Resolves true when every page was written, false when `progress.stop` ended the listing early. */
export async function streamOrdersJson(
  printer: Printer,
  pages: AsyncIterable<OrderList>,
  progress: ListingProgress,
): Promise<boolean> {
  let buffer = '{"items":[';
  const close = (cursor: string | null) => printer.write(`${buffer}],"next_cursor":${JSON.stringify(cursor)}}\n`);
  try {
    for await (const page of pages) {
      for (const order of page.items) {
        buffer += `${progress.ordersWritten === 0 ? '' : ','}${JSON.stringify(order)}`;
        progress.ordersWritten += 1;
      }
      progress.resumeCursor = page.next_cursor;
      // Write in chunks of about 64 KiB: fewer syscalls than one write an order, bounded memory.
      if (buffer.length >= 65_536) {
        await printer.write(buffer);
        buffer = '';
      }
    }
  } catch (error) {
    // Valid JSON on stdout whatever page failed, the first too: `{"items":[],"next_cursor":null}`.
    await close(progress.resumeCursor);
    throw error;
  }
  const stopped = stoppedEarly(progress);
  await close(stopped ? progress.resumeCursor : null);
  return !stopped;
}

/** The readable form: one header, then each page's rows as it arrives (columns line up across pages). */
export async function streamOrdersTable(
  printer: Printer,
  pages: AsyncIterable<OrderList>,
  progress: ListingProgress,
): Promise<boolean> {
  const table = printer.tableWriter(ORDER_COLUMNS);
  for await (const page of pages) {
    await table.write(page.items.map(orderCells));
    progress.ordersWritten += page.items.length;
    progress.resumeCursor = page.next_cursor;
  }
  if (progress.ordersWritten === 0) printer.note('no orders');
  return !stoppedEarly(progress);
}

/** `--output csv`: the header at once (also for no orders), then each page's records as it arrives. */
export async function streamOrdersCsv(
  printer: Printer,
  pages: AsyncIterable<OrderList>,
  progress: ListingProgress,
): Promise<boolean> {
  await printer.csv([ORDER_CSV_COLUMNS]);
  for await (const page of pages) {
    await printer.csv(page.items.map(orderCsvFields));
    progress.ordersWritten += page.items.length;
    progress.resumeCursor = page.next_cursor;
  }
  return !stoppedEarly(progress);
}

function stoppedEarly(progress: ListingProgress): boolean {
  return progress.stop?.aborted === true && progress.resumeCursor !== null;
}
