/**
 * One line of a batch file into an order to place, checked against the API's options before anything is
 * bought. CSV is parsed strictly by hand rather than with a CSV library: no valid value (a base58 address,
 * an integer, an id of `[A-Za-z0-9._:-]`) can contain a comma, a quote or a line break, so quoting could
 * only smuggle in a bad value, and we want each problem reported with its line (csv-parse: ~12 ms to load,
 * 1.7 MB, and it strips CR and BOM silently).
 */
import { checkTronAddress } from '../domain/address.js';
import { UsageError } from '../domain/errors.js';
import { CLIENT_REQUEST_ID_TEXT } from '../domain/patterns.js';
import { printable } from '../domain/printable.js';
import type { PhysicalLine } from './line-reader.js';
import { rawTopLevelNumbers } from './raw-numbers.js';
import { contractReceiverError, isKnownContract } from '../tron/receiver.js';

export type BatchFormat = 'csv' | 'ndjson';

export interface BatchLine {
  line: number;
  address: string;
  energy: number;
  hours: number;
  /** As written in the file; undefined when the line leaves it to be derived. */
  clientRequestId: string | undefined;
}

/** What the options endpoint allows. */
export interface BatchRules {
  energyPerPortion: number;
  maxEnergy: number;
  hours: readonly number[];
}

const COLUMNS = ['address', 'energy', 'hours', 'client_request_id'] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: readonly Column[] = ['address', 'energy', 'hours'];

/** The format from `--format`, the file name, or the first line (`{` means NDJSON). */
export function detectFormat(firstLine: string, fileName: string): BatchFormat {
  if (/\.(ndjson|jsonl)$/i.test(fileName)) return 'ndjson';
  if (/\.csv$/i.test(fileName)) return 'csv';
  return firstLine.trimStart().startsWith('{') ? 'ndjson' : 'csv';
}

export class LineParser {
  #columns: Column[] | undefined;

  constructor(
    readonly format: BatchFormat,
    readonly source: string,
    readonly rules: BatchRules,
  ) {}

  /** The order on this line, or undefined for the CSV header and blank lines. Throws naming the line. */
  parse({ number, text }: PhysicalLine): BatchLine | undefined {
    if (text.trim() === '') return undefined;
    const fail = (problem: string, hint?: string) =>
      new UsageError(
        `${this.source}, line ${number}: ${problem}: nothing was bought`,
        hint === undefined ? {} : { hint },
      );
    const fields = this.format === 'ndjson' ? ndjsonFields(text, fail) : this.#csvFields(text, fail);
    if (fields === undefined) return undefined;
    return {
      line: number,
      address: this.#address(fields.address, fail),
      energy: this.#energy(fields.energy, fail),
      hours: this.#hours(fields.hours, fail),
      clientRequestId: requestId(fields.client_request_id, fail),
    };
  }

  #csvFields(text: string, fail: (problem: string) => UsageError): Partial<Record<Column, unknown>> | undefined {
    if (text.includes('"')) throw fail('quoted CSV fields are not accepted (no valid value needs quotes)');
    const cells = text.split(',');
    if (this.#columns === undefined) {
      this.#columns = header(cells, fail);
      return undefined;
    }
    if (cells.length !== this.#columns.length)
      throw fail(`${cells.length} fields, but the header has ${this.#columns.length}`);
    return Object.fromEntries(this.#columns.map((column, i) => [column, cells[i]]));
  }

  #address(value: unknown, fail: (problem: string, hint?: string) => UsageError): string {
    if (value === undefined || value === '') throw fail('the address is missing');
    if (typeof value !== 'string') throw fail('the address must be a string');
    if (/\s/u.test(value)) throw fail(`the address ${shown(value, 60)} contains white space`);
    const check = checkTronAddress(value);
    if (!check.ok) throw fail(`"${printable(value, 60)}" is not a TRON address: ${check.reason}`);
    // USDT's contract, the commonest mistake: refused with the other line checks, before any request.
    if (isKnownContract(value)) {
      const contract = contractReceiverError(value);
      throw fail(contract.message, contract.hint);
    }
    return value;
  }

  #energy(value: unknown, fail: (problem: string) => UsageError): number {
    const energy = positiveInteger(value);
    if (energy === undefined) throw fail(`energy must be a positive whole number in plain digits, not ${shown(value)}`);
    if (energy > this.rules.maxEnergy) throw fail(`energy ${energy} is too large: at most ${this.rules.maxEnergy}`);
    if (energy % this.rules.energyPerPortion !== 0)
      throw fail(`energy ${energy} is not a multiple of the portion, ${this.rules.energyPerPortion}`);
    return energy;
  }

  #hours(value: unknown, fail: (problem: string) => UsageError): number {
    const hours = positiveInteger(value);
    if (hours === undefined || !this.rules.hours.includes(hours)) {
      throw fail(`hours ${shown(value)} is not offered: use one of ${this.rules.hours.join(', ')}`);
    }
    return hours;
  }
}

function header(cells: string[], fail: (problem: string) => UsageError): Column[] {
  const columns = cells.map((cell) => cell.trim());
  for (const column of columns) {
    if (!(COLUMNS as readonly string[]).includes(column))
      throw fail(`unknown column "${printable(column, 40)}" in the header: use ${COLUMNS.join(',')}`);
  }
  if (new Set(columns).size !== columns.length) throw fail('a column appears twice in the header');
  const missing = REQUIRED.filter((column) => !columns.includes(column));
  if (missing.length > 0)
    throw fail(`the header lacks ${missing.join(', ')} (expected address,energy,hours[,client_request_id])`);
  return columns as Column[];
}

function ndjsonFields(text: string, fail: (problem: string) => UsageError): Partial<Record<Column, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail('not a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('not a JSON object');
  for (const key of Object.keys(value)) {
    if (!(COLUMNS as readonly string[]).includes(key))
      throw fail(`unknown key "${printable(key, 40)}": use ${COLUMNS.join(', ')}`);
  }
  return { ...value, ...numbersAsWritten(text, value as Partial<Record<Column, unknown>>, fail) };
}

/**
 * NDJSON's energy and hours as their JSON text, so that one rule holds for NDJSON, CSV and the command
 * line: plain digits. JSON.parse would take `1e5` and `65000.0` as 100000 and 65000, and a string
 * `"65000"` is not a number.
 */
function numbersAsWritten(
  text: string,
  fields: Partial<Record<Column, unknown>>,
  fail: (problem: string) => UsageError,
): Partial<Record<Column, unknown>> {
  const raw = rawTopLevelNumbers(text);
  const out: Partial<Record<Column, unknown>> = {};
  for (const key of ['energy', 'hours'] as const) {
    const value = fields[key];
    if (value === undefined) continue;
    if (typeof value !== 'number')
      throw fail(
        `${key} must be a JSON number in plain digits (e.g. ${key === 'energy' ? 65000 : 1}), not ${shownJson(value)}`,
      );
    const written = raw.get(key) ?? String(value);
    if (!/^\d+$/.test(written))
      throw fail(
        `${key} must be a JSON number in plain digits (no exponent, decimal point or sign), not ${printable(written, 40)}`,
      );
    out[key] = written;
  }
  return out;
}

/** A value as the user wrote it, quoted unless it is plain digits, so that a space around it shows and is named. */
function shown(value: unknown, max = 40): string {
  if (value === undefined) return '(missing)';
  const text = printable(String(value), max);
  if (typeof value !== 'string' || /^\d+$/.test(value)) return text;
  const spaces = [/^\s/.test(value) ? 'a leading space' : '', /\s$/.test(value) ? 'a trailing space' : '']
    .filter(Boolean)
    .join(' and ');
  return `"${text}"${spaces === '' ? '' : ` (${spaces})`}`;
}

function shownJson(value: unknown): string {
  return `${typeof value === 'string' ? 'the string ' : ''}${printable(JSON.stringify(value), 40)}`;
}

/** The decimal text of a positive integer in plain digits (CSV cells, NDJSON numbers as written). */
function positiveInteger(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[1-9]\d{0,15}$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
}

function requestId(value: unknown, fail: (problem: string) => UsageError): string | undefined {
  if (value === undefined || value === '' || value === null) return undefined;
  if (typeof value !== 'string' || !CLIENT_REQUEST_ID_TEXT.test(value)) {
    throw fail(`client_request_id "${printable(String(value), 70)}" must be 1 to 64 letters, digits or ._:-`);
  }
  return value;
}
