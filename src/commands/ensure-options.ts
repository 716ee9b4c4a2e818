/** What `energy ensure`'s options parse into (ensure.ts), and the checks that need more than one of them. */
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../domain/errors.js';
import { parseListenAddress } from '../service/listen-address.js';
import type { WatchOptions } from '../service/observer.js';

export interface Parsed {
  energy?: number;
  transfers?: number;
  to?: string;
  token: string;
  tolerance: number;
  hours: number;
  maxTotal?: string;
  yes?: boolean;
  wait?: boolean;
  waitTimeout: number;
  dryRun?: boolean;
  placeWhatFits?: boolean;
  every?: number;
  metrics?: WatchOptions['metrics'];
  minBalance?: string;
  onEvent?: string;
}

export function listenAddress(text: string): NonNullable<WatchOptions['metrics']> {
  const address = parseListenAddress(text);
  if (address === undefined) throw new InvalidArgumentError('must be a port, or host:port (e.g. 9464, 0.0.0.0:9464)');
  return address;
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
