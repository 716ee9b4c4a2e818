/**
 * A few small validators for response bodies. Each returns the value normalised to the documented type or
 * throws a ShapeMismatch naming the path that broke the spec. Read tolerantly (the contract's Output): a
 * value is refused only where its meaning breaks (a required key missing or mistyped, an amount off the
 * six-decimal pattern, an id that is not a UUID), and keys the spec does not name are kept as sent, so that
 * `--json` passes an additive v1 field on unchanged.
 */
import { AMOUNT_PATTERN } from '../domain/money-text.js';
import { INTEGER_TEXT, UUID_TEXT } from '../domain/patterns.js';
import { ShapeMismatch } from '../domain/errors.js';

export type Check<T> = (value: unknown, path: string) => T;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`}`;
}

function fail(path: string, expected: string, value: unknown): never {
  throw new ShapeMismatch(`${path} should be ${expected}, got ${describe(value)}`);
}

export const string: Check<string> = (value, path) =>
  typeof value === 'string' ? value : fail(path, 'a string', value);

export const boolean: Check<boolean> = (value, path) =>
  typeof value === 'boolean' ? value : fail(path, 'true or false', value);

export const integer: Check<number> = (value, path) =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : fail(path, 'an integer', value);

/** An integer the spec also lets the server send as a decimal string, e.g. `"24"`. */
export const looseInteger: Check<number> = (value, path) => {
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) {
    const parsed = Number(value);
    if (Number.isSafeInteger(parsed)) return parsed;
  }
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : fail(path, 'an integer', value);
};

/** A TRX amount with exactly six fraction digits, kept as a string. */
export const amount: Check<string> = (value, path) =>
  typeof value === 'string' && AMOUNT_PATTERN.test(value)
    ? value
    : fail(path, 'an amount with six decimals such as "1.500000"', value);

export const uuid: Check<string> = (value, path) =>
  typeof value === 'string' && UUID_TEXT.test(value) ? value : fail(path, 'a UUID', value);

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path) => (value === null ? null : check(value, path));
}

export function arrayOf<T>(check: Check<T>): Check<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) fail(path, 'an array', value);
    return value.map((item, index) => check(item, `${path}[${index}]`));
  };
}

/**
 * Every listed key is required (a null-able one must still be present) and checked; every other key is
 * kept with its value as sent, in the server's order (a spread defines `__proto__` as a plain own key, it
 * never sets the prototype). The type names the documented keys only: the rest ride along for `--json`.
 */
export function object<T extends object>(fields: { [K in keyof T]: Check<T[K]> }): Check<T> {
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object', value);
    const record = value as Record<string, unknown>;
    const result: Record<string, unknown> = { ...record };
    for (const key of Object.keys(fields) as (keyof T & string)[]) {
      const keyPath = path === '' ? key : `${path}.${key}`;
      if (!Object.hasOwn(record, key)) throw new ShapeMismatch(`${keyPath} is missing`);
      result[key] = fields[key](record[key], keyPath);
    }
    return result as T;
  };
}
