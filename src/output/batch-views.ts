/**
 * How `order batch` prints as it goes: with --json one NDJSON object a line, else a table printed a line
 * at a time, its widths fixed up front (a derived id's length is known, an order id is a UUID), so that
 * rows printed one by one still line up. On a narrow terminal the client id goes first, then the order id
 * (a dry run's address) takes its short form, with the ids in a detail, and the detail is cut to the line: a
 * detail cut short (a failure's reason) is written whole on stderr after its row.
 */
import type { Order } from '../client/types.js';
import type { Printer } from './printer.js';
import type { Column } from './fit-table.js';
import { formatInteger } from './format.js';
import { shortAddress, shortId, shortIdsIn } from './short-forms.js';

/**
 * A batch line's result, as printed (batch/execute.ts `LineResult` is one). Plain shapes: output/ sits below
 * the flows and takes what they hand it, without importing them; with --json the whole object is written.
 */
export interface BatchResultRow {
  line: number;
  client_request_id: string;
  status: string;
  order: Pick<Order, 'total_trx' | 'status'> | null;
  order_id: string | null;
  error: { message: string } | null;
}

/** A dry run's line, as printed (batch/show-plan.ts `PlannedLine` is one). */
export interface BatchPlanRow {
  line: number;
  client_request_id: string;
  plan: string;
  address: string;
  energy: number;
  duration_hours: number;
  total_trx: string | null;
}

interface RowWriter<T> {
  write: (item: T) => Promise<void>;
  end: () => Promise<void>;
}

/** Batch results as they come. */
export function batchResultWriter(printer: Printer, idWidth: number): RowWriter<BatchResultRow> {
  if (printer.jsonMode) return ndjsonWriter(printer);
  return tableWriter(
    printer,
    [
      { head: 'LINE', width: 6 },
      { head: 'CLIENT_REQUEST_ID', width: idWidth, drop: 1 },
      { head: 'STATUS', width: 8 },
      { head: 'ORDER', width: 36, short: { step: 2, form: shortId } },
      {
        head: 'DETAIL',
        width: 0,
        short: { step: 2, form: shortIdsIn },
        cut: 3,
        spill: (cell, row) => `energy: line ${row[0]}: ${row[2]}: ${cell}`,
      },
    ],
    (r) => [String(r.line), r.client_request_id, r.status, r.order_id ?? '', detail(r)],
  );
}

/** A dry run's plan, a line at a time. */
export function batchPlanWriter(printer: Printer, idWidth: number): RowWriter<BatchPlanRow> {
  if (printer.jsonMode) return ndjsonWriter(printer);
  return tableWriter(
    printer,
    [
      { head: 'LINE', width: 6 },
      { head: 'CLIENT_REQUEST_ID', width: idWidth, drop: 1 },
      { head: 'PLAN', width: 8 },
      { head: 'ADDRESS', width: 34, short: { step: 2, form: shortAddress } },
      { head: 'ENERGY', width: 9 },
      { head: 'HOURS', width: 5 },
      { head: 'TOTAL_TRX', width: 0 },
    ],
    (p) => [
      String(p.line),
      p.client_request_id,
      p.plan,
      p.address,
      formatInteger(p.energy),
      String(p.duration_hours),
      p.total_trx ?? '',
    ],
  );
}

function ndjsonWriter<T>(printer: Printer): RowWriter<T> {
  // Lines finished in the same turn of the event loop go out in one write: one syscall, not one a line.
  let pending = '';
  let flushing: Promise<void> | undefined;
  const flush = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    const text = pending;
    pending = '';
    flushing = undefined;
    await printer.write(text);
  };
  return {
    write: (item) => {
      pending += `${JSON.stringify(item)}\n`;
      flushing ??= flush();
      return flushing;
    },
    end: async () => {
      await flushing;
      if (pending !== '') await printer.write(pending);
    },
  };
}

function tableWriter<T>(printer: Printer, columns: readonly Column[], row: (item: T) => string[]): RowWriter<T> {
  const table = printer.tableWriter(columns);
  return { write: (item) => table.write([row(item)]), end: async () => undefined };
}

function detail(result: BatchResultRow): string {
  if (result.error !== null) return result.error.message;
  if (result.order !== null) return `${result.order.total_trx} TRX, ${result.order.status}`;
  return result.status === 'skipped' ? 'ordered by an earlier run' : '';
}
