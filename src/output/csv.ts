/**
 * RFC 4180 CSV: fields separated by commas, records ended by CRLF, a field quoted (its quotes doubled)
 * when it holds a comma, a quote or a line break, and also a semicolon: the many locales whose spreadsheets
 * split on `;` (German, French, …) would otherwise cut a server-chosen `ok;@SUM(1+1)` into a cell of its own
 * that starts a formula. Two safety rules on top, because these files end up in spreadsheets and terminals:
 * - a field starting with = + - @ TAB or CR gets a leading `'`, so a spreadsheet shows it as text instead
 *   of running it as a formula (CSV injection, OWASP's advice); our own values (ids, addresses,
 *   amounts, times, booleans) never start so, only text a server or a user chose can (a client_request_id,
 *   an address or a status from another client on the account, a failure code); a field that is wholly a
 *   decimal number is left as it is (spend's saved_trx may be negative): it is a number, never a formula,
 *   and a quote would make the spreadsheet read it as text;
 * - a formula character after a `;` inside a field (spaces between allowed) gets a `'` too: a spreadsheet
 *   splitting on `;` starts a cell there, mid-field, where the field's quotes mean nothing (issue 32);
 * - control characters other than the line feed are written as `\u001b`-style escapes (a CR inside a
 *   field included), as everywhere the CLI prints outside text.
 */
import { timestampMs } from '../domain/api-time.js';
import type { Order } from '../client/types.js';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\r\n]/;
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
/** A `;` (where a `;`-splitting spreadsheet starts a cell) before a formula start, spaces between allowed. */
const FORMULA_AFTER_SEMICOLON = /;(?=[ ]*[=+\-@\t\r])/g;

export function csvField(value: string): string {
  const started = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  const safe = started.replace(FORMULA_AFTER_SEMICOLON, ";'");
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One record, CRLF included. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** The contract's columns of `order list --output csv`. */
export const ORDER_CSV_COLUMNS = [
  'id',
  'client_request_id',
  'address',
  'energy',
  'duration_hours',
  'total_trx',
  'status',
  'lifecycle_final',
  'delivery_final',
  'created_at',
  'updated_at',
  'failure_code',
] as const;

/** ISO 8601 in UTC, whatever unit the API sent (see api-time.ts). */
export function isoUtc(value: number): string {
  return new Date(timestampMs(value)).toISOString();
}

export function orderCsvFields(order: Order): string[] {
  return [
    order.id,
    order.client_request_id,
    order.address,
    String(order.energy),
    String(order.duration_hours),
    order.total_trx,
    order.status,
    String(order.lifecycle_final),
    String(order.delivery_final),
    isoUtc(order.created_at),
    isoUtc(order.updated_at),
    order.failure?.code ?? '',
  ];
}
