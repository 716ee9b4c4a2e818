/**
 * Validation of the two request bodies. Every field problem is collected, so that one 400 lists them all;
 * unknown properties are problems too (the schemas say additionalProperties: false).
 */
import { checkTronAddress } from '../domain/address.js';
import type { CreateOrderRequest, QuoteRequest } from '../client/types.js';
import type { ProblemError } from '../domain/errors.js';
import { DURATIONS, ENERGY_PER_PORTION, MAX_ENERGY } from './catalog.js';

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: ProblemError[] };

type FieldCheck = (value: unknown, field: string) => ProblemError | undefined;

const AMOUNT = /^[0-9]+\.[0-9]{6}$/;
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

function problem(code: string, field: string | null, message: string): ProblemError {
  return { code, field, message };
}

const address: FieldCheck = (value, field) => {
  if (typeof value !== 'string') return problem('INVALID_ADDRESS', field, `${field} must be a string`);
  const check = checkTronAddress(value);
  return check.ok ? undefined : problem('INVALID_ADDRESS', field, `${field} is not a TRON address: ${check.reason}`);
};

const energy: FieldCheck = (value, field) => {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return problem('INVALID_INTEGER', field, `${field} must be an integer`);
  }
  if (value < ENERGY_PER_PORTION || value > MAX_ENERGY) {
    return problem('ENERGY_OUT_OF_RANGE', field, `${field} must be between ${ENERGY_PER_PORTION} and ${MAX_ENERGY}`);
  }
  if (value % ENERGY_PER_PORTION !== 0) {
    return problem('ENERGY_NOT_MULTIPLE', field, `${field} must be a multiple of ${ENERGY_PER_PORTION}`);
  }
  return undefined;
};

const durationHours: FieldCheck = (value, field) => {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return problem('INVALID_INTEGER', field, `${field} must be an integer`);
  }
  return DURATIONS.includes(value)
    ? undefined
    : problem('DURATION_NOT_ALLOWED', field, `${field} must be one of ${DURATIONS.join(', ')}`);
};

const expectedTotal: FieldCheck = (value, field) =>
  typeof value === 'string' && AMOUNT.test(value)
    ? undefined
    : problem('INVALID_AMOUNT', field, `${field} must be an amount with six decimals, e.g. "12.500000"`);

const clientRequestId: FieldCheck = (value, field) =>
  typeof value === 'string' && CLIENT_REQUEST_ID.test(value)
    ? undefined
    : problem('INVALID_CLIENT_REQUEST_ID', field, `${field} must be 1 to 64 characters of A-Z a-z 0-9 . _ : -`);

const QUOTE_FIELDS: Readonly<Record<string, FieldCheck>> = { address, energy, duration_hours: durationHours };
const ORDER_FIELDS: Readonly<Record<string, FieldCheck>> = {
  client_request_id: clientRequestId,
  address,
  energy,
  duration_hours: durationHours,
  expected_total_trx: expectedTotal,
};

function validateObject(
  value: unknown,
  fields: Readonly<Record<string, FieldCheck>>,
): Validated<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, errors: [problem('INVALID_BODY', null, 'the body must be a JSON object')] };
  }
  const record = value as Record<string, unknown>;
  const errors: ProblemError[] = [];
  for (const [field, check] of Object.entries(fields)) {
    const item = record[field];
    // The schema marks some of these null-able, but every one is required for the request to mean anything.
    const error =
      item === undefined || item === null ? problem('REQUIRED', field, `${field} is required`) : check(item, field);
    if (error !== undefined) errors.push(error);
  }
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(fields, key)) errors.push(problem('UNKNOWN_PROPERTY', key, `${key} is not a known property`));
  }
  return errors.length === 0 ? { ok: true, value: record } : { ok: false, errors };
}

export function validateQuote(value: unknown): Validated<QuoteRequest> {
  const result = validateObject(value, QUOTE_FIELDS);
  return result.ok ? { ok: true, value: result.value as unknown as QuoteRequest } : result;
}

export function validateOrder(value: unknown): Validated<CreateOrderRequest> {
  const result = validateObject(value, ORDER_FIELDS);
  return result.ok ? { ok: true, value: result.value as unknown as CreateOrderRequest } : result;
}
