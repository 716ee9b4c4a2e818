/**
 * One line of a batch file into an order to place, checked against the API's options before anything is
 * bought. Reads what this CLI and common tools write: CSV with or without quoted fields (csv-cells.ts),
 * NDJSON with `hours` or `duration_hours` (what every `--json` output and the API call it), and the other
 * keys this CLI's own outputs carry beside an order's (ignored, so that a dry run's plan or an `order list`
 * reads back). Any other unknown name is refused: a misspelt `client_request_id` must not pass unnoticed.
 * The CSV reader is our own, not csv-parse: each problem is reported with its line, and it is ~40 lines.
 */
import { checkTronAddress } from '../domain/address.js';
import { UsageError } from '../domain/errors.js';
import { CLIENT_REQUEST_ID_TEXT } from '../domain/patterns.js';
import { printable } from '../domain/printable.js';
import { formatInteger } from '../domain/text-forms.js';
import { header, type Fail, type Field } from './batch-fields.js';
import { BadLineError } from '../domain/cli-errors.js';
import { csvCells } from './csv-cells.js';
import type { PhysicalLine } from './line-reader.js';
import { ndjsonFields } from './ndjson-fields.js';
import { OccurrenceCounter, RepeatFilter } from './occurrences.js';
import { contractReceiverError, isKnownContract } from '../tron/receiver.js';

export type BatchFormat = 'csv' | 'ndjson';

export interface BatchLine {
  line: number;
  address: string;
  energy: number;
  hours: number;
  /** As written in the file; undefined when the line leaves it to be derived. */
  clientRequestId: string | undefined;
  /**
   * For a line without an id: the how-manieth line of the file (this one included) that asks for this
   * address, energy and hours without an id, part of its derived id (occurrences.ts); 0 for a line with
   * an id, and on the check pass, which counts none.
   */
  occurrence: number;
}

/** What the options endpoint allows. */
export interface BatchRules {
  energyPerPortion: number;
  maxEnergy: number;
  hours: readonly number[];
}

/** The format from `--format`, the file name, or the first line (`{` means NDJSON). */
export function detectFormat(firstLine: string, fileName: string): BatchFormat {
  if (/\.(ndjson|jsonl)$/i.test(fileName)) return 'ndjson';
  if (/\.csv$/i.test(fileName)) return 'csv';
  return firstLine.trimStart().startsWith('{') ? 'ndjson' : 'csv';
}

export class LineParser {
  /** The header's columns in order, null for one that is ignored. */
  #columns: (Field | null)[] | undefined;
  /** The check pass marks each line's key here (occurrences.ts)… */
  readonly repeats: RepeatFilter | undefined;
  /** …and every later pass counts the keys it kept. */
  readonly #counter: OccurrenceCounter | undefined;

  /** `candidates`: the check pass's `repeats.candidates`, for every later pass; none on the check pass. */
  constructor(
    readonly format: BatchFormat,
    readonly source: string,
    readonly rules: BatchRules,
    candidates?: ReadonlySet<string>,
  ) {
    this.repeats = candidates === undefined ? new RepeatFilter() : undefined;
    this.#counter = candidates === undefined ? undefined : new OccurrenceCounter(candidates);
  }

  /** The order on this line, or undefined for the CSV header and blank lines. Throws naming the line. */
  parse({ number, text }: PhysicalLine): BatchLine | undefined {
    if (text.trim() === '') return undefined;
    const fail: Fail = (problem, hint) => new BadLineError(this.source, number, problem, hint);
    const fields = this.format === 'ndjson' ? ndjsonFields(text, fail) : this.#csvFields(text, number, fail);
    if (fields === undefined) return undefined;
    const address = this.#address(fields.address, fail);
    const energy = this.#energy(fields.energy, fail);
    const hours = this.#hours(fields.hours, fail);
    const clientRequestId = requestId(fields.client_request_id, fail);
    let occurrence = 0;
    if (clientRequestId === undefined) {
      const key = `${address}\n${energy}\n${hours}`;
      // The check pass knows no occurrence yet (it uses none): 0 there, as for a line with an id.
      this.repeats?.add(key);
      if (this.#counter !== undefined) occurrence = this.#counter.next(key);
    }
    return { line: number, address, energy, hours, clientRequestId, occurrence };
  }

  #csvFields(text: string, number: number, fail: Fail): Partial<Record<Field, unknown>> | undefined {
    const split = csvCells(text);
    if (this.#columns === undefined) {
      // The header: no line can be read without it, so its problem ends the check (a plain UsageError).
      const headerFail = (problem: string) =>
        new UsageError(`${this.source}, line ${number}: ${problem}: nothing was bought`);
      if ('problem' in split) throw headerFail(split.problem);
      this.#columns = header(split.cells, headerFail);
      return undefined;
    }
    if ('problem' in split) throw fail(split.problem);
    const { cells } = split;
    if (cells.length !== this.#columns.length)
      throw fail(`${cells.length} fields, but the header has ${this.#columns.length}`);
    const fields: Partial<Record<Field, unknown>> = {};
    this.#columns.forEach((column, i) => {
      if (column !== null) fields[column] = cells[i];
    });
    return fields;
  }

  #address(value: unknown, fail: Fail): string {
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

  #energy(value: unknown, fail: Fail): number {
    const energy = positiveInteger(value);
    if (energy === undefined) throw fail(`energy must be a positive whole number in plain digits, not ${shown(value)}`);
    if (energy > this.rules.maxEnergy)
      throw fail(`energy ${formatInteger(energy)} is too large: at most ${formatInteger(this.rules.maxEnergy)}`);
    if (energy % this.rules.energyPerPortion !== 0)
      throw fail(
        `energy ${formatInteger(energy)} is not a multiple of the portion, ${formatInteger(this.rules.energyPerPortion)}`,
      );
    return energy;
  }

  #hours(value: unknown, fail: Fail): number {
    const hours = positiveInteger(value);
    if (hours === undefined || !this.rules.hours.includes(hours)) {
      throw fail(`hours ${shown(value)} is not offered: use one of ${this.rules.hours.join(', ')}`);
    }
    return hours;
  }
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

/** The decimal text of a positive integer in plain digits (CSV cells, NDJSON numbers as written). */
function positiveInteger(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[1-9]\d{0,15}$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
}

function requestId(value: unknown, fail: Fail): string | undefined {
  if (value === undefined || value === '' || value === null) return undefined;
  if (typeof value !== 'string' || !CLIENT_REQUEST_ID_TEXT.test(value)) {
    throw fail(`client_request_id "${printable(String(value), 70)}" must be 1 to 64 letters, digits or ._:-`);
  }
  return value;
}
