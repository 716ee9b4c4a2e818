/** The readable form of `ensure`: one row per address. */
import { formatInteger } from './format.js';
import type { TableSpec } from './printer.js';

export interface EnsureRow {
  address: string;
  available: number;
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

export function ensureTable(rows: readonly EnsureRow[]): TableSpec {
  return {
    head: ['ADDRESS', 'AVAILABLE', 'IN FLIGHT', 'TARGET', 'BUY', 'TOTAL TRX', 'RESULT'],
    widths: [34, 9, 9, 9, 9, 10, 6],
    rows: rows.map((row) => [
      row.address,
      formatInteger(row.available),
      formatInteger(row.in_flight),
      formatInteger(row.target),
      row.to_buy === 0 ? '-' : formatInteger(row.to_buy),
      row.total_trx ?? '-',
      (RESULT[row.reason] ?? (() => row.reason))(row) + (row.bandwidth_short === true ? '; bandwidth short' : ''),
    ]),
  };
}
