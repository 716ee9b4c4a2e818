/** The spec's response shapes as checks: every body is run through one before anything uses it. */
import type { ProblemDetails, ProblemError } from '../domain/errors.js';
import {
  amount,
  arrayOf,
  boolean,
  integer,
  looseInteger,
  nullable,
  object,
  string,
  uuid,
  type Check,
} from './shape.js';
import type {
  BalanceResponse,
  Order,
  OrderFailure,
  OrderList,
  OptionsResponse,
  QuoteResponse,
  TimeResponse,
} from './types.js';

export const timeResponse: Check<TimeResponse> = object<TimeResponse>({ unix_time: integer });

export const balanceResponse: Check<BalanceResponse> = object<BalanceResponse>({
  available_trx: amount,
  held_trx: amount,
  status: string,
});

export const optionsResponse: Check<OptionsResponse> = object<OptionsResponse>({
  energy_per_portion: integer,
  max_energy: integer,
  duration_hours: arrayOf(looseInteger),
  intake_enabled: boolean,
});

export const quoteResponse: Check<QuoteResponse> = object<QuoteResponse>({
  address: string,
  energy: integer,
  duration_hours: integer,
  energy_trx: amount,
  activation_trx: nullable(amount),
  total_trx: amount,
  can_afford: boolean,
});

const orderFailure: Check<OrderFailure> = object<OrderFailure>({ code: string, message: string });

/**
 * An order, which may be another client's (a dashboard, another integration on the same account): the spec
 * types `client_request_id`, `address` and `status` as plain strings, so any string passes (shown escaped
 * where it leaves); only what breaks meaning is refused. Where an order must be ours, the caller compares it
 * with what it asked for (client.ts, orderMismatch).
 */
export const order: Check<Order> = object<Order>({
  id: uuid,
  client_request_id: string,
  address: string,
  energy: integer,
  duration_hours: integer,
  total_trx: amount,
  status: string,
  lifecycle_final: boolean,
  delivery_final: boolean,
  created_at: integer,
  updated_at: integer,
  failure: nullable(orderFailure),
});

export const orderList: Check<OrderList> = object<OrderList>({
  items: arrayOf(order),
  next_cursor: nullable(string),
});

const problemError: Check<ProblemError> = object<ProblemError>({
  code: string,
  field: nullable(string),
  message: string,
});

/**
 * Problem Details: the five required keys, plus `field` and `errors` when present. Returns undefined for a
 * body that is not one, so that the caller can still report the status.
 */
export function parseProblem(value: unknown): ProblemDetails | undefined {
  try {
    const base = object({ type: string, title: string, status: integer, detail: string, code: string })(value, '');
    const record = value as Record<string, unknown>;
    const problem: ProblemDetails = { ...base };
    if (record.field !== undefined) problem.field = nullable(string)(record.field, 'field');
    if (record.errors !== undefined) problem.errors = nullable(arrayOf(problemError))(record.errors, 'errors');
    return problem;
  } catch {
    return undefined;
  }
}
