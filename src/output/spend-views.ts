/** `energy spend` as a table, a key/value block or CSV records. Amounts as summed: six decimals, never a float. */
import type { SpendReport } from '../reports/spend.js';
import type { Row } from './views.js';
import { formatInteger, formatIsoTime } from './format.js';
import type { Column } from './fit-table.js';

export function spendRows(report: SpendReport): Row[] {
  return [
    ['Since', report.since === null ? '(the first order)' : formatIsoTime(report.since)],
    ['Until', report.until === null ? '(now)' : formatIsoTime(report.until)],
    ['Orders', formatInteger(report.orders)],
    ['Total', `${report.total_trx} TRX`],
  ];
}

export const SPEND_COLUMNS: readonly Column[] = [
  { head: 'KEY', width: 34 },
  { head: 'ORDERS', width: 8 },
  { head: 'TOTAL_TRX', width: 16 },
];

/** The groups, then a total line. */
export function spendCells(report: SpendReport): string[][] {
  return [
    ...report.groups.map((group) => [group.key, formatInteger(group.orders), group.total_trx]),
    ['total', formatInteger(report.orders), report.total_trx],
  ];
}

/** CSV: one record a group with --by; without, one record with the bounds and the total. */
export function spendCsv(report: SpendReport, grouped: boolean): string[][] {
  if (grouped)
    return [['key', 'orders', 'total_trx'], ...report.groups.map((g) => [g.key, String(g.orders), g.total_trx])];
  return [
    ['since', 'until', 'orders', 'total_trx'],
    [report.since ?? '', report.until ?? '', String(report.orders), report.total_trx],
  ];
}
