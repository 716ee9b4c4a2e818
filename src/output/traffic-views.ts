/** The readable form of what the sandbox's traffic met (`energy sandbox --seed-address ADDR:transfers-per-hour=n`). */
import { formatInteger } from './format.js';
import type { TableSpec } from './printer.js';

export interface TrafficRow {
  address: string;
  transfers: number;
  covered: number;
  burned_trx: string;
}

export function trafficTable(rows: readonly TrafficRow[]): TableSpec {
  return {
    columns: [
      { head: 'ADDRESS', width: 34 },
      { head: 'TRANSFERS', width: 9 },
      { head: 'COVERED', width: 9 },
      { head: 'BURNED_TRX', width: 10 },
    ],
    rows: rows.map((row) => [row.address, formatInteger(row.transfers), formatInteger(row.covered), row.burned_trx]),
  };
}
