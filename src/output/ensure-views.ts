/** The readable form of `ensure`: one row per address. */
import { formatInteger, formatIsoTime } from './format.js';
import type { TableSpec } from './printer.js';
import type { Column } from './fit-table.js';
import { shortAddress, shortIdsIn } from './short-forms.js';

export interface EnsureRow {
  address: string;
  /** Null for an address another host holds (claimed_elsewhere): not read. */
  available: number | null;
  available_after?: number;
  in_flight: number;
  target: number;
  reason: string;
  to_buy: number;
  total_trx: string | null;
  burn_trx?: string | null;
  capped: boolean;
  bought: { id: string; status: string } | null;
  error: { message: string } | null;
  per_transfer?: number | null;
  bandwidth_short?: boolean;
  claimed_by?: { host: string; until: string };
  early?: { reason: string; ends_at: string };
}

const RESULT: Record<string, (row: EnsureRow) => string> = {
  enough: () => 'enough',
  within_tolerance: () => 'enough within --tolerance (drift)',
  in_flight: () => 'enough once orders in flight arrive',
  in_flight_elsewhere: () => 'ordered by another host at the same moment (in flight)',
  would_buy: (row) => `would buy${row.capped ? ' (capped at max_energy)' : ''}`,
  bought: (row) =>
    `bought ${row.bought?.id ?? ''} (${row.bought?.status ?? ''})${row.capped ? ', capped at max_energy' : ''}`,
  failed: (row) => `failed: ${row.error?.message ?? ''}`,
  not_on_chain: (row) => `not on chain: ${row.error?.message ?? ''}`,
  delivery_failed: (row) => `delivery failed: ${row.error?.message ?? ''}`,
  spend_limit: (row) => `held back by --max-spend: ${row.error?.message ?? ''}`,
  claimed_elsewhere: (row) =>
    `skipped: claimed by ${row.claimed_by === undefined ? 'another host' : `${row.claimed_by.host} until ${formatIsoTime(row.claimed_by.until)}`}`,
};

/** `ensure --every`'s line before each cycle's table, its time local like every table's. */
export function cycleLine(cycle: { cycle: number; at: string; error?: { message: string } }): string {
  const failed = cycle.error ? `: failed: ${cycle.error.message}` : '';
  return `cycle ${cycle.cycle} at ${formatIsoTime(cycle.at)}${failed}\n`;
}

/** A result on a narrow terminal: its order id by 8 characters, and no status after it (the full form has it). */
function shortResult(cell: string): string {
  return shortIdsIn(cell).replace(/^(bought [0-9a-f]{8}) \([^)]*\)/i, '$1');
}

/**
 * With --wait, an AFTER column next to AVAILABLE: the energy before the purchase and once it arrived. On a
 * narrow terminal the order id in a result takes its short form, then the address (which the user gave);
 * then the result is cut, and a cut result is written whole on stderr (a failure's reason is never lost);
 * then IN_FLIGHT goes, then TARGET (the user's own figure) and BUY: 80 columns keep every column, 60 keep
 * ADDRESS, AVAILABLE, TOTAL_TRX and RESULT. A BURN_TRX column beside TOTAL_TRX says what burning the energy
 * bought would cost instead (`-` when nothing is bought or the chain's price is unknown; it goes first).
 * The columns depend on the options, never on what a run found, so that a service's cycles print the same
 * columns into a pipe, `-` where a cell is empty: `awk '{print $5}'` reads the same column every cycle.
 */
export function ensureTable(rows: readonly EnsureRow[], options: { wait?: boolean } = {}): TableSpec {
  const after = options.wait === true || rows.some((row) => row.available_after !== undefined);
  const pick = <T>(cells: T[]): T[] => cells.filter((_cell, i) => i !== 2 || after);
  return {
    columns: pick<Column>([
      { head: 'ADDRESS', width: 34, short: { step: 2, form: shortAddress } },
      { head: 'AVAILABLE', width: 9 },
      { head: 'AFTER', width: 9 },
      { head: 'IN_FLIGHT', width: 9, drop: 4 },
      { head: 'TARGET', width: 9, drop: 5 },
      { head: 'BUY', width: 9, drop: 5 },
      { head: 'TOTAL_TRX', width: 10 },
      { head: 'BURN_TRX', width: 10, drop: 1 },
      {
        head: 'RESULT',
        width: 6,
        short: { step: 1, form: shortResult },
        cut: 3,
        spill: (cell, row) => `energy: ${row[0]}: ${cell}`,
      },
    ]),
    rows: rows.map((row) =>
      pick([
        row.address,
        row.available === null ? '-' : formatInteger(row.available),
        row.available_after === undefined ? '-' : formatInteger(row.available_after),
        formatInteger(row.in_flight),
        // A target that could not be worked out (a failed --transfers estimate) is not 0.
        row.target === 0 && row.error !== null ? '-' : formatInteger(row.target),
        row.to_buy === 0 ? '-' : formatInteger(row.to_buy),
        row.total_trx ?? '-',
        row.burn_trx ?? '-',
        (RESULT[row.reason] ?? (() => row.reason))(row) +
          (row.early === undefined ? '' : `; renewal: a rental ends ${formatIsoTime(row.early.ends_at)}`) +
          (row.bandwidth_short === true ? '; bandwidth short' : ''),
      ]),
    ),
  };
}
