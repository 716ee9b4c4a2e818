/**
 * `energy api`'s -f and -F fields (as gh api's): -f is always a string; -F is typed, so that `-F energy=65000`
 * sends the JSON number 65000. A number is copied as the user typed it, never parsed into a float and
 * printed back, so that 0.1, 1e21 or 123456789012345678901 reach the server digit for digit.
 */
import { UsageError } from '../domain/errors.js';
import { encodeQuery } from '../signing/index.js';

export interface ApiField {
  key: string;
  /** The value as JSON text, for a body. */
  json: string;
  /** The value as text, for a query. */
  text: string;
}

/** RFC 8259's number grammar: what may be copied into a JSON body as is. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function split(spec: string, option: string): [string, string] {
  const at = spec.indexOf('=');
  if (at <= 0) throw new UsageError(`${option} takes key=value, got ${JSON.stringify(spec)}`);
  return [spec.slice(0, at), spec.slice(at + 1)];
}

/** -f key=value: a string, whatever it looks like. */
export function stringField(spec: string): ApiField {
  const [key, value] = split(spec, '-f');
  return { key, json: JSON.stringify(value), text: value };
}

/** -F key=value: a JSON number, true, false or null when it is one; otherwise a string. */
export function typedField(spec: string): ApiField {
  const [key, value] = split(spec, '-F');
  const literal = JSON_NUMBER.test(value) || value === 'true' || value === 'false' || value === 'null';
  return { key, json: literal ? value : JSON.stringify(value), text: value };
}

/** Refuses a key given twice: which one would be meant is a guess. */
export function checkFields(fields: readonly ApiField[]): void {
  const seen = new Set<string>();
  for (const { key } of fields) {
    if (seen.has(key)) throw new UsageError(`the field ${JSON.stringify(key)} is given twice`);
    seen.add(key);
  }
}

/** The fields as one JSON object, in the order given, each value as its JSON text. */
export function fieldsBody(fields: readonly ApiField[]): string {
  return `{${fields.map((field) => `${JSON.stringify(field.key)}:${field.json}`).join(',')}}`;
}

/** The fields as query parameters, appended to a query the path may already have (`?a=1` or ''). */
export function withFieldsQuery(query: string, fields: readonly ApiField[]): string {
  const added = encodeQuery(Object.fromEntries(fields.map((field) => [field.key, field.text])));
  if (added === '') return query;
  return query === '' ? added : `${query}&${added.slice(1)}`;
}
