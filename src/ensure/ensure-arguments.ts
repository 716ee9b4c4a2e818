/**
 * The values of `ensure`'s own options, parsed before anything is read: each throws commander's
 * InvalidArgumentError with a one-line reason (exit 2).
 */
import { InvalidArgumentError } from 'commander';
import { checkTronAddress } from '../domain/address.js';
import { UsageError } from '../domain/errors.js';
import type { EnsureOptions } from './ensure-types.js';

/** Transfers within one rental: a bound that keeps n × the energy of one transfer an exact integer. */
const MAX_TRANSFERS = 100_000;

export function transferCount(text: string, positiveInteger: (text: string) => number): number {
  const count = positiveInteger(text);
  if (count > MAX_TRANSFERS)
    throw new InvalidArgumentError(`too many: at most ${MAX_TRANSFERS.toLocaleString('en-US')}`);
  return count;
}

/** `--tolerance 1`, `1%` or `0.25` (percent, at most two decimals, below 50) as basis points: integers only. */
export function tolerancePercent(text: string): number {
  const match = /^(\d{1,2})(?:\.(\d{1,2}))?%?$/.exec(text.trim());
  const bp = match === null ? NaN : Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (!(bp < 5_000)) throw new InvalidArgumentError('must be a percentage from 0 to 49.99, e.g. 1 or 0.5');
  return bp;
}

/** Every address checked before anything is read; a repeated one counts once. */
export function uniqueAddresses(texts: readonly string[]): string[] {
  for (const text of texts) {
    const check = checkTronAddress(text);
    if (!check.ok) throw new UsageError(`${text.slice(0, 40)} is not a TRON address: ${check.reason}`);
  }
  return [...new Set(texts)];
}

interface TargetOptions {
  energy?: number | undefined;
  transfers?: number | undefined;
  to?: string | undefined;
  token: string;
}

/** Exactly one of --energy and --transfers; --to and --token only with --transfers (`typed`: given on the command line). */
export function ensureTarget(
  options: TargetOptions,
  typed: (name: string) => boolean,
): Pick<EnsureOptions, 'energy' | 'transfers'> {
  if (options.transfers !== undefined) {
    return { energy: undefined, transfers: { count: options.transfers, token: options.token, to: options.to } };
  }
  if (options.energy === undefined) throw new UsageError('give the target: --energy <n> or --transfers <n>');
  const stray = ['to', 'token'].find(typed);
  if (stray !== undefined) throw new UsageError(`--${stray} goes with --transfers, not --energy`);
  return { energy: options.energy, transfers: undefined };
}
