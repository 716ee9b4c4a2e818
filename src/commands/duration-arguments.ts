/**
 * The one duration syntax of every duration option (`--timeout`, `--wait-timeout`, `--every`): parsers that
 * throw commander's InvalidArgumentError with a one-line reason (exit 2 before any request).
 */
import { InvalidArgumentError, Option } from 'commander';

/** Milliseconds in each unit of the one duration syntax every duration option takes. */
const DURATION_UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DAY_MS = DURATION_UNITS.d;
const DURATION_SYNTAX = 'a duration such as 30s, 10m, 1h or 1d (also ms; a plain number is seconds)';

/**
 * The one duration syntax: `250ms`, `30s`, `10m`, `1.5h`, `1d`, or a plain number of seconds (`600`,
 * `2.5`). Milliseconds, or undefined when the text is not a duration or rounds to less than 1 ms.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (match === null) return undefined;
  const ms = Math.round(Number(match[1]) * DURATION_UNITS[(match[2] ?? 's') as keyof typeof DURATION_UNITS]);
  return ms >= 1 ? ms : undefined;
}

function durationWithin(text: string, maxMs: number, most: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new InvalidArgumentError(`must be ${DURATION_SYNTAX}, above 0`);
  if (ms > maxMs) throw new InvalidArgumentError(`too long: at most ${most}`);
  return ms;
}

/** `--timeout`, `--wait-timeout`: a duration above 0 and at most a day, in seconds (`2.5` for `2500ms`). */
export function seconds(text: string): number {
  return durationWithin(text, DAY_MS, '1d') / 1000;
}

/** `--every`: a duration above 0 (0 would be a busy loop on the API and the node), at most 7 days, in ms. */
export function everyDuration(text: string): number {
  return durationWithin(text, 7 * DAY_MS, '7d');
}

/** `--wait-timeout`, the same for `order create --wait`, `order wait` and `ensure --wait`. */
export function waitTimeoutOption(): Option {
  return new Option('--wait-timeout <duration>', 'give up waiting after this long, e.g. 90s or 10m')
    .argParser(seconds)
    .default(600, '10m');
}
