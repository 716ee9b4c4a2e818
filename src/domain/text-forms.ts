/**
 * Text forms people read, in tables and in messages alike (which is why they live below output/: the
 * flows' messages use them too): grouped integers and local times. Amounts are never formatted: shown as sent.
 */
import { timestampMs } from './api-time.js';

/** Local ISO date-time with the UTC offset, e.g. `2026-11-23T09:15:02+01:00`. */
export function formatTimestamp(value: number, timeZoneOffsetMinutes?: number): string {
  const ms = timestampMs(value);
  const offset = timeZoneOffsetMinutes ?? -new Date(ms).getTimezoneOffset();
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
  if (offset === 0) return `${local}Z`;
  const sign = offset > 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * A time kept as ISO 8601 UTC (a journal record, an `ensure` cycle, `spend`'s bounds) in the one form human
 * output uses, local with the offset as formatTimestamp; text that is not a time is left as it is. JSON
 * and CSV keep the ISO text.
 */
export function formatIsoTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : formatTimestamp(ms);
}

/**
 * 65000 → `65,000`: energy amounts are large integers people compare at a glance. Grouped by hand, not
 * with toLocaleString: its first call loads ICU's locale data, ~10 ms of a table command's start-up.
 */
export function formatInteger(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}`;
}

/** `1 order`, `2 orders`, `1,000 orders`: a count and its noun, which "1 orders" gets wrong. */
export function counted(n: number, noun: string): string {
  return `${formatInteger(n)} ${noun}${n === 1 ? '' : 's'}`;
}
