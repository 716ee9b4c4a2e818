/** What `order pending` and `order recover` show of the journal's unsettled records, as tables and JSON. */
import type { JournalRecord, RecordedOrder } from '../journal/record.js';
import type { Column } from './fit-table.js';
import { formatInteger, formatIsoTime } from './format.js';
import type { TableSpec } from './printer.js';
import { shortAddress, shortId, shortTime, shortUrl } from './short-forms.js';

/** A pending record as `order pending` lists it: its order, whether this profile settles it, its age. */
export interface PendingItem {
  record: JournalRecord;
  order: RecordedOrder;
  /** true or false when the current profile's API and key are known, null when they are not. */
  here: boolean | null;
  ageSeconds: number;
  pastTerm: boolean;
}

/**
 * In a pipe every column whole; on a narrow terminal the client id goes first (`order recover` settles them
 * all), then the time takes its short form, the last error is cut (and written whole on stderr), the API loses its scheme, the address
 * shortens, HOURS goes, and last the API is cut too.
 */
const PENDING_COLUMNS: readonly Column[] = [
  { head: 'CLIENT_REQUEST_ID', width: 20, drop: 1 },
  { head: 'JOURNALED', width: 25, short: { step: 2, form: (cell) => shortTime(cell) } },
  { head: 'ADDRESS', width: 34, short: { step: 5, form: shortAddress } },
  { head: 'ENERGY', width: 9 },
  { head: 'HOURS', width: 5, drop: 6 },
  { head: 'TOTAL_TRX', width: 14 },
  { head: 'API', width: 24, short: { step: 4, form: shortUrl }, cut: 7 },
  { head: 'HERE', width: 4 },
  { head: 'LAST_ERROR', width: 20, cut: 3, spill: (cell, row) => `energy: ${row[0]}: last error: ${cell}` },
];

export function pendingTable(items: readonly PendingItem[]): TableSpec {
  return {
    columns: PENDING_COLUMNS,
    rows: items.map(({ record, order, here }) => [
      record.client_request_id,
      formatIsoTime(record.journaled_at),
      order.address,
      formatInteger(order.energy),
      String(order.duration_hours),
      order.expected_total_trx,
      record.origin,
      here === null ? '?' : here ? 'yes' : 'no',
      record.last_error ?? '(none: the run ended while sending)',
    ]),
  };
}

/** `order pending --json`'s items. */
export function pendingJson(items: readonly PendingItem[]): object[] {
  return items.map(({ record, order, here, ageSeconds, pastTerm }) => ({
    client_request_id: record.client_request_id,
    api: record.origin,
    address: order.address,
    energy: order.energy,
    duration_hours: order.duration_hours,
    expected_total_trx: order.expected_total_trx,
    journaled_at: record.journaled_at,
    age_seconds: ageSeconds,
    past_term: pastTerm,
    last_error: record.last_error,
    settleable_here: here,
  }));
}

/** What became of a record `order recover` settled (ordering/recover.ts's RecoverItem, as output/ sees it). */
export interface RecoveredItem {
  client_request_id: string;
  outcome: string;
  order: { id: string; status: string; total_trx: string } | null;
  error: { message: string } | null;
}

export function recoverTable(items: readonly RecoveredItem[]): TableSpec {
  return {
    columns: [
      { head: 'CLIENT_REQUEST_ID', width: 20 },
      { head: 'OUTCOME', width: 8 },
      { head: 'ORDER', width: 36, short: { step: 1, form: shortId } },
      { head: 'DETAIL', width: 20, cut: 2 },
    ],
    rows: items.map((item) => [
      item.client_request_id,
      item.outcome,
      item.order?.id ?? '',
      item.order === null ? (item.error?.message ?? '') : `${item.order.status}, ${item.order.total_trx} TRX`,
    ]),
  };
}
