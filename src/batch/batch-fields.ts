/**
 * The names a batch file may use for an order's fields (CSV columns, NDJSON keys).
 */
import { printable } from '../domain/printable.js';
import { UsageError } from '../domain/errors.js';
import type { BadLineError } from '../domain/cli-errors.js';

export const FIELDS = ['address', 'energy', 'hours', 'client_request_id'] as const;
export type Field = (typeof FIELDS)[number];
const REQUIRED: readonly Field[] = ['address', 'energy', 'hours'];
/** `duration_hours` is the API's name, which every `--json` output and `order list --output csv` use. */
const ALIASES: Readonly<Record<string, Field>> = { duration_hours: 'hours' };
/** Names this CLI's outputs carry beside an order's fields (an order, a batch's plan or results, CSV). */
const IGNORED: ReadonlySet<string> = new Set([
  'id',
  'line',
  'plan',
  'status',
  'order',
  'order_id',
  'error',
  'total_trx',
  'energy_trx',
  'activation_trx',
  'can_afford',
  'lifecycle_final',
  'delivery_final',
  'created_at',
  'updated_at',
  'failure',
  'failure_code',
]);
export const NAMES = `${FIELDS.join(', ')} (or duration_hours for hours)`;

/** A name of the file (a CSV column, an NDJSON key) as a field, 'ignored', or undefined for an unknown one. */
export function fieldOf(name: string): Field | 'ignored' | undefined {
  if ((FIELDS as readonly string[]).includes(name)) return name as Field;
  return ALIASES[name] ?? (IGNORED.has(name) ? 'ignored' : undefined);
}

export type Fail = (problem: string, hint?: string) => BadLineError;

/** The CSV header's columns in order, null for an ignored one; a problem here ends the check. */
export function header(cells: string[], fail: (problem: string) => UsageError): (Field | null)[] {
  const columns = cells.map((cell) => {
    const name = cell.trim();
    const field = fieldOf(name);
    if (field === undefined) throw fail(`unknown column "${printable(name, 40)}" in the header: use ${NAMES}`);
    return field === 'ignored' ? null : field;
  });
  const named = columns.filter((column) => column !== null);
  if (new Set(named).size !== named.length)
    throw fail('a column appears twice in the header (hours and duration_hours are one)');
  const missing = REQUIRED.filter((column) => !named.includes(column));
  if (missing.length > 0)
    throw fail(`the header lacks ${missing.join(', ')} (expected address,energy,hours[,client_request_id])`);
  return columns;
}
