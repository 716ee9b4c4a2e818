/** An NDJSON batch line's fields, with energy and hours as written (see numbersAsWritten). */
import { printable } from '../domain/printable.js';
import { fieldOf, NAMES, type Fail, type Field } from './batch-fields.js';
import { rawTopLevelNumbers } from './raw-numbers.js';

export function ndjsonFields(text: string, fail: Fail): Partial<Record<Field, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail('not a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail('not a JSON object');
  const fields: Partial<Record<Field, unknown>> = {};
  /** The key each field was read from: `hours` or `duration_hours`. */
  const keys: Partial<Record<Field, string>> = {};
  for (const [key, item] of Object.entries(value)) {
    const field = fieldOf(key);
    if (field === undefined) throw fail(`unknown key "${printable(key, 40)}": use ${NAMES}`);
    if (field === 'ignored') continue;
    if (keys[field] !== undefined) throw fail(`${keys[field]} and ${key} are one field: give one of them`);
    fields[field] = item;
    keys[field] = key;
  }
  return { ...fields, ...numbersAsWritten(text, fields, keys, fail) };
}

/**
 * NDJSON's energy and hours as their JSON text, so that one rule holds for NDJSON, CSV and the command
 * line: plain digits. JSON.parse would take `1e5` and `65000.0` as 100000 and 65000, and a string
 * `"65000"` is not a number.
 */
function numbersAsWritten(
  text: string,
  fields: Partial<Record<Field, unknown>>,
  keys: Partial<Record<Field, string>>,
  fail: Fail,
): Partial<Record<Field, unknown>> {
  const raw = rawTopLevelNumbers(text);
  const out: Partial<Record<Field, unknown>> = {};
  for (const field of ['energy', 'hours'] as const) {
    const value = fields[field];
    const key = keys[field] ?? field;
    if (value === undefined) continue;
    if (typeof value !== 'number')
      throw fail(
        `${key} must be a JSON number in plain digits (e.g. ${field === 'energy' ? 65000 : 1}), not ${shownJson(value)}`,
      );
    const written = raw.get(key) ?? String(value);
    if (!/^\d+$/.test(written))
      throw fail(
        `${key} must be a JSON number in plain digits (no exponent, decimal point or sign), not ${printable(written, 40)}`,
      );
    out[field] = written;
  }
  return out;
}

function shownJson(value: unknown): string {
  return `${typeof value === 'string' ? 'the string ' : ''}${printable(JSON.stringify(value), 40)}`;
}
