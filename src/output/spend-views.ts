/**
 * `energy spend` as a table, a key/value block or CSV records. Amounts as summed: six decimals, never a
 * float. Where a TRON node gave the price of burning energy, BURN_TRX and SAVED_TRX come after the total.
 */
import type { SpendReport } from '../reports/spend.js';
import type { Row } from './views.js';
import { formatInteger, formatIsoTime } from './format.js';
import type { Column } from './fit-table.js';

/** burn_trx and saved_trx were asked for (a node is configured), whether or not the price could be read. */
const rentOrBurn = (report: SpendReport) => report.burn_trx !== undefined;

export function spendRows(report: SpendReport): Row[] {
  return [
    ['Since', report.since === null ? '(the first order)' : formatIsoTime(report.since)],
    ['Until', report.until === null ? '(now)' : formatIsoTime(report.until)],
    ['Orders', formatInteger(report.orders)],
    ['Energy', formatInteger(report.energy)],
    ['Total', `${report.total_trx} TRX`],
    ...(rentOrBurn(report)
      ? ([
          [
            'Burn instead',
            report.burn_trx === null ? 'unknown (no price from the TRON node)' : `${report.burn_trx} TRX`,
          ],
          ['Saved', report.saved_trx === null ? 'unknown' : `${report.saved_trx} TRX`],
          ['Saved is', 'an upper bound: every unit bought counted as used once (energy not used saved nothing)'],
        ] as const)
      : []),
  ];
}

export function spendColumns(report: SpendReport): readonly Column[] {
  return [
    { head: 'KEY', width: 34 },
    { head: 'ORDERS', width: 8 },
    { head: 'TOTAL_TRX', width: 16 },
    ...(rentOrBurn(report)
      ? [
          { head: 'BURN_TRX', width: 16 },
          { head: 'SAVED_TRX', width: 16 },
        ]
      : []),
  ];
}

/** The groups, then a total line. */
export function spendCells(report: SpendReport): string[][] {
  const burn = (row: { burn_trx?: string | null; saved_trx?: string | null }) =>
    rentOrBurn(report) ? [row.burn_trx ?? '-', row.saved_trx ?? '-'] : [];
  return [
    ...report.groups.map((group) => [group.key, formatInteger(group.orders), group.total_trx, ...burn(group)]),
    ['total', formatInteger(report.orders), report.total_trx, ...burn(report)],
  ];
}

/** CSV: one record a group with --by; without, one record with the bounds and the total. */
export function spendCsv(report: SpendReport, grouped: boolean): string[][] {
  const burnHead = rentOrBurn(report) ? ['burn_trx', 'saved_trx'] : [];
  const burn = (row: { burn_trx?: string | null; saved_trx?: string | null }) =>
    rentOrBurn(report) ? [row.burn_trx ?? '', row.saved_trx ?? ''] : [];
  if (grouped)
    return [
      ['key', 'orders', 'energy', 'total_trx', ...burnHead],
      ...report.groups.map((g) => [g.key, String(g.orders), String(g.energy), g.total_trx, ...burn(g)]),
    ];
  return [
    ['since', 'until', 'orders', 'energy', 'total_trx', ...burnHead],
    [
      report.since ?? '',
      report.until ?? '',
      String(report.orders),
      String(report.energy),
      report.total_trx,
      ...burn(report),
    ],
  ];
}
