/**
 * The state folder's spend ledger as text: a header line naming the ledger, then one JSON event per line
 * (spend-ledger.ts), each checked as it is read. Anything else is refused, never skipped: a ledger read
 * as shorter than it is would let a service spend its ceiling again.
 */
import { randomBytes } from 'node:crypto';
import type { FinalState, SpendEvent, StoredEvent } from './spend-ledger.js';

const FORMAT = 'energy spend ledger';
const VERSION = 2;
const AMOUNT = /^\d+\.\d{6}$/;
const FINAL_STATES: ReadonlySet<FinalState> = new Set(['kept', 'refunded', 'unknown']);

/** The first line of a ledger file. */
export function headerLine(ledger: string): string {
  return `${JSON.stringify({ format: FORMAT, version: VERSION, ledger })}\n`;
}

/** The ledger a header line names, or undefined when the line is not one. */
export function ledgerOfHeader(line: string): string | undefined {
  const value = parse(line) as { format?: unknown; version?: unknown; ledger?: unknown } | undefined;
  return value?.format === FORMAT && value.version === VERSION && typeof value.ledger === 'string'
    ? value.ledger
    : undefined;
}

/** Events to append, each with an id of its own. */
export function eventLines(events: readonly SpendEvent[]): { text: string; stored: StoredEvent[] } {
  const stored = events.map((event) => ({ ...event, event_id: randomBytes(8).toString('hex') }));
  return { text: stored.map((event) => `${JSON.stringify(event)}\n`).join(''), stored };
}

/** One event line, checked; undefined when it is not one. */
export function parseEventLine(line: string): StoredEvent | undefined {
  const value = parse(line);
  return value !== undefined && isStoredEvent(value) ? value : undefined;
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown): value is string => typeof value === 'string';
const time = (value: unknown): value is number => Number.isSafeInteger(value);
const amount = (value: unknown): value is string => text(value) && AMOUNT.test(value);

export function isStoredEvent(value: Record<string, unknown>): value is StoredEvent {
  if (!text(value.event_id)) return false;
  switch (value.kind) {
    case 'window':
      return time(value.window_ms) && (value.window_ms as number) > 0;
    case 'hold':
      return (
        text(value.id) &&
        text(value.holder) &&
        text(value.address) &&
        amount(value.total_trx) &&
        time(value.at_ms) &&
        text(value.key_id) &&
        text(value.origin)
      );
    case 'drop':
      return text(value.id) && text(value.holder) && time(value.at_ms);
    case 'order':
      return (
        text(value.id) && text(value.order_id) && text(value.address) && amount(value.total_trx) && time(value.at_ms)
      );
    case 'final':
      return (
        text(value.id) &&
        FINAL_STATES.has(value.state as FinalState) &&
        time(value.at_ms) &&
        (value.note === null || text(value.note))
      );
    default:
      return false;
  }
}
