/** The readable form of `ensure`: one row per address. */
import { formatInteger, formatIsoTime } from './format.js';
import type { TableSpec } from './printer.js';
import type { Column } from './fit-table.js';
import { shortAddress, shortIdsIn } from './short-forms.js';

export interface EnsureRow {
  address: string;
  available: number;
  available_after?: number;
  in_flight: number;
  target: number;
  reason: string;
  to_buy: number;
  total_trx: string | null;
  capped: boolean;
  bought: { id: string; status: string } | null;
  error: { message: string } | null;
  per_transfer?: number | null;
  bandwidth_short?: boolean;
}

const RESULT: Record<string, (row: EnsureRow) => string> = {
  enough: () => 'enough',
  within_tolerance: () => 'enough within --tolerance (drift)',
  in_flight: () => 'enough once orders in flight arrive',
  in_flight_elsewhere: () => 'ordered by another host at the same moment (in flight)',
  would_buy: (row) => `would buy${row.capped ? ' (capped at max_energy)' : ''}`,
  bought: (row) =>
    `ordered ${row.bought?.id ?? ''} (${row.bought?.status ?? ''})${row.capped ? ', capped at max_energy' : ''}`,
  failed: (row) => `failed: ${row.error?.message ?? ''}`,
};

/** `ensure --every`'s line before each cycle's table, its time local like every table's. */
export function cycleLine(cycle: { cycle: number; at: string; error?: { message: string } }): string {
  const failed = cycle.error ? `: failed: ${cycle.error.message}` : '';
  return `cycle ${cycle.cycle} at ${formatIsoTime(cycle.at)}${failed}\n`;
}

/**
 * With --wait, an AFTER column next to AVAILABLE: the energy before the purchase and once it arrived. On a
 * narrow terminal the order id in a result takes its short form, then the address (which the user gave), and
 * only then is the result cut.
 */
export function ensureTable(rows: readonly EnsureRow[]): TableSpec {
  const after = rows.some((row) => row.available_after !== undefined);
  const pick = <T>(cells: T[]): T[] => (after ? cells : cells.filter((_cell, i) => i !== 2));
  return {
    columns: pick<Column>([
      { head: 'ADDRESS', width: 34, short: { step: 2, form: shortAddress } },
      { head: 'AVAILABLE', width: 9 },
      { head: 'AFTER', width: 9 },
      { head: 'IN FLIGHT', width: 9 },
      { head: 'TARGET', width: 9 },
      { head: 'BUY', width: 9 },
      { head: 'TOTAL TRX', width: 10 },
      { head: 'RESULT', width: 6, short: { step: 1, form: shortIdsIn }, cut: 3 },
    ]),
    rows: rows.map((row) =>
      pick([
        row.address,
        formatInteger(row.available),
        row.available_after === undefined ? '-' : formatInteger(row.available_after),
        formatInteger(row.in_flight),
        formatInteger(row.target),
        row.to_buy === 0 ? '-' : formatInteger(row.to_buy),
        row.total_trx ?? '-',
        (RESULT[row.reason] ?? (() => row.reason))(row) + (row.bandwidth_short === true ? '; bandwidth short' : ''),
      ]),
    ),
  };
}
