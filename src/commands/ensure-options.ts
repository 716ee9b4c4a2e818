/** What `energy ensure`'s options parse into (ensure.ts), and the checks that need more than one of them. */
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../domain/errors.js';
import type { Ceiling } from '../ensure/ensure-types.js';
import { parseListenAddress } from '../service/listen-address.js';
import type { WatchOptions } from '../service/observer.js';
import { trxAmount } from './arguments.js';
import { parseDuration } from './duration-arguments.js';
import { defaultRenewBeforeMs } from '../ensure/renewal.js';

export interface Parsed {
  energy?: number;
  transfers?: number;
  to?: string;
  token: string;
  tolerance: number;
  hours: number;
  maxTotal?: string;
  /** --max-spend as typed, parsed; `ceilingOf` adds --budget. */
  maxSpend?: Omit<Ceiling, 'budget'>;
  budget?: string;
  yes?: boolean;
  wait?: boolean;
  waitTimeout: number;
  dryRun?: boolean;
  placeWhatFits?: boolean;
  every?: number;
  metrics?: WatchOptions['metrics'];
  minBalance?: string;
  onEvent?: string;
  file?: string;
  renewBefore?: number;
}

export function listenAddress(text: string): NonNullable<WatchOptions['metrics']> {
  const address = parseListenAddress(text);
  if (address === undefined)
    throw new InvalidArgumentError(
      'must be a port, or host:port (e.g. 9464; 0.0.0.0:9464 for every interface, not 0:9464)',
    );
  return address;
}

/** The shortest --max-spend window: a ceiling over less is no ceiling (a 1 ms window never holds two orders). */
const SHORTEST_WINDOW_MS = 60_000;

/** `--max-spend 50/24h`: a TRX amount above 0, a slash, a duration from a minute to a year. */
export function maxSpend(text: string): Omit<Ceiling, 'budget'> {
  const [amount, window, ...rest] = text.split('/');
  if (window === undefined || rest.length > 0) {
    throw new InvalidArgumentError('must be <trx>/<duration>, e.g. 50/24h (at most 50 TRX in any 24 hours)');
  }
  const trx = trxAmount(amount!.trim());
  if (!/[1-9]/.test(trx)) throw new InvalidArgumentError('the amount must be above 0');
  const windowMs = parseDuration(window);
  if (windowMs === undefined || windowMs > 366 * 86_400_000) {
    throw new InvalidArgumentError('the duration must be one such as 1h, 24h or 7d (at most 366d)');
  }
  if (windowMs < SHORTEST_WINDOW_MS) {
    throw new InvalidArgumentError('the window must be at least 1m: a shorter one bounds nothing (e.g. 50/24h)');
  }
  return { trx, windowMs, text: `${trx.replace(/\.?0+$/, '')}/${window.trim()}` };
}

/** `--budget payouts`: letters, digits, `.`, `_`, `-` (at most 64, starting with a letter or digit). */
export function budgetName(text: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(text)) return text;
  throw new InvalidArgumentError('use letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)');
}

/**
 * The run's one Ceiling: --max-spend with its --budget, checked against --every (a window shorter than one
 * cycle bounds nothing). ensure-run.ts hands it to spend-ceiling.ts, which holds against it and refuses.
 */
export function ceilingOf(parsed: Parsed): Ceiling | undefined {
  const limit = parsed.maxSpend;
  if (limit === undefined) {
    if (parsed.budget !== undefined) throw new UsageError('--budget names the ledger of --max-spend: give both');
    return undefined;
  }
  if (parsed.every !== undefined && limit.windowMs < parsed.every) {
    throw new UsageError(`--max-spend ${limit.text}: its window is shorter than --every, so it bounds nothing`, {
      hint: 'give --max-spend a window of at least one --every interval (a day is usual: 50/24h)',
    });
  }
  return { ...limit, ...(parsed.budget !== undefined && { budget: parsed.budget }) };
}

/** The service's watchers, which need the service: refused with one run (exit 2). */
export function watchOptions(parsed: Parsed): WatchOptions {
  const watch = { metrics: parsed.metrics, minBalance: parsed.minBalance, onEvent: parsed.onEvent };
  const given = (['metrics', 'minBalance', 'onEvent'] as const).find((key) => watch[key] !== undefined);
  if (given !== undefined && parsed.every === undefined) {
    const flag = { metrics: '--metrics', minBalance: '--min-balance', onEvent: '--on-event' }[given];
    throw new UsageError(`${flag} goes with --every: it watches a running service`);
  }
  return watch;
}

/** `--renew-before 2m`: a duration up to a day, or 0 (renew once a rental has ended, as before). */
export function renewBeforeDuration(text: string): number {
  if (/^0+(?:\.0+)?(?:ms|s|m|h|d)?$/.test(text.trim())) return 0;
  const ms = parseDuration(text);
  if (ms === undefined || ms > 86_400_000)
    throw new InvalidArgumentError('must be a duration such as 2m or 10m, at most 1d (0: renew once a rental ends)');
  return ms;
}

/** --renew-before, or its default (renewal.ts); shorter than the rental, or every cycle would renew. */
export function renewBeforeMs(parsed: Parsed): number {
  const ms = parsed.renewBefore ?? defaultRenewBeforeMs(parsed.every, parsed.hours);
  if (ms >= parsed.hours * 3_600_000)
    throw new UsageError(`--renew-before must be shorter than the rental (--hours ${parsed.hours})`, {
      hint: 'a few minutes is usual: the interval of --every and the time a delivery takes',
    });
  return ms;
}
