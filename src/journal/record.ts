/**
 * One journal record: an order request this machine sent (or was about to send), its exact bytes, and
 * what became of it. Never a credential: the API key appears only as a one-way `key_id`.
 */
import { createHash } from 'node:crypto';

/** What the server said, once it said something definite. */
export type Outcome =
  | { kind: 'created' | 'existing'; at: string; order_id: string }
  /** Answered with a 4xx: no order was placed by this request. `code` is the Problem Details code. */
  | { kind: 'refused'; at: string; status: number; code: string | null }
  /** Never left this machine (no connection could be made): nothing was placed. */
  | { kind: 'not-sent'; at: string; reason: string };

export interface JournalRecord {
  version: 1;
  /** The API base URL the request went to (origin plus any path prefix). */
  origin: string;
  key_id: string;
  client_request_id: string;
  /** The exact body bytes sent, as UTF-8 text: a resend sends these and nothing else. */
  body: string;
  journaled_at: string;
  /** The last failure that left the outcome unknown (a timeout, a reset, a 5xx, a signal). */
  last_error: string | null;
  outcome: Outcome | null;
}

/** The order parameters inside a record's body (parsed, never re-serialised for sending). */
export interface RecordedOrder {
  address: string;
  energy: number;
  duration_hours: number;
  expected_total_trx: string;
}

/** A stable, one-way name for an API key: which key sent a request, without the key itself. */
export function keyIdOf(apiKey: string): string {
  return `sha256:${createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 16)}`;
}

/**
 * The order inside a record's body, or undefined when the body is not one (garbled by hand, or a raw
 * `energy api` body without these fields): such a record is reported as damaged, never trusted.
 */
export function orderBody(body: string): RecordedOrder | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const order = value as Partial<Record<keyof RecordedOrder, unknown>>;
  const whole = (n: unknown) => Number.isSafeInteger(n) && (n as number) > 0;
  if (
    typeof order.address !== 'string' ||
    !whole(order.energy) ||
    !whole(order.duration_hours) ||
    typeof order.expected_total_trx !== 'string' ||
    !/^\d+(?:\.\d+)?$/.test(order.expected_total_trx)
  )
    return undefined;
  return {
    address: order.address,
    energy: order.energy as number,
    duration_hours: order.duration_hours as number,
    expected_total_trx: order.expected_total_trx,
  };
}

/** The order of a record read by parseRecord (which checked its body) or written by this run. */
export function recordedOrder(record: JournalRecord): RecordedOrder {
  const order = orderBody(record.body);
  // parseRecord refuses such a record, and the callers write only order bodies: this would be a bug.
  if (order === undefined) throw new Error(`journal record ${record.client_request_id} has no order body`);
  return order;
}

/** An outcome as the caller states it; the journal adds the time. */
export type OutcomeInput = DistributiveOmitAt<Outcome>;
type DistributiveOmitAt<T> = T extends unknown ? Omit<T, 'at'> : never;

/** The id of the order the server has for this record, or undefined when it has none (or none is known). */
export function orderIdOf(record: JournalRecord): string | undefined {
  const outcome = record.outcome;
  return outcome?.kind === 'created' || outcome?.kind === 'existing' ? outcome.order_id : undefined;
}

/** An order exists on the server for this record. */
export function hasOrder(record: JournalRecord): boolean {
  return orderIdOf(record) !== undefined;
}

/**
 * The server has, or may have, an order for this record (it placed one, or the outcome is unknown): its id
 * is taken, and only these bytes may go under it. A refused or unsent request placed nothing.
 */
export function mayHaveOrder(record: JournalRecord): boolean {
  return record.outcome === null || hasOrder(record);
}

/** Checks a parsed file; anything else (a file from a future version, a damaged one) is skipped, not trusted. */
export function parseRecord(text: string): JournalRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<JournalRecord>;
    if (
      value.version === 1 &&
      typeof value.origin === 'string' &&
      typeof value.key_id === 'string' &&
      typeof value.client_request_id === 'string' &&
      typeof value.body === 'string' &&
      orderBody(value.body) !== undefined &&
      typeof value.journaled_at === 'string' &&
      (value.outcome === null || typeof value.outcome === 'object')
    ) {
      return { ...value, last_error: value.last_error ?? null } as JournalRecord;
    }
  } catch {
    // Unreadable: skipped.
  }
  return undefined;
}

/** How long past its rental's hours a pending record still counts (as an order's term does, on-its-way.ts). */
export const PENDING_TERM_SLACK_MS = 15 * 60_000;

/**
 * When a pending record stops counting in flight, on the server's clock: `journaled_at` + its hours + 15 min.
 * Any order it may have placed has ended by then (issue 44: a request killed mid-way by a reboot, its id
 * never used again, held an address's energy "in flight" for ever). It is still listed until settled.
 */
export function pendingEndsAtMs(record: JournalRecord): number {
  return Date.parse(record.journaled_at) + recordedOrder(record).duration_hours * 3_600_000 + PENDING_TERM_SLACK_MS;
}
