/** Defaults and sanity checks for SandboxOptions: a bad option fails at start, not on some later request. */
import { randomBytes } from 'node:crypto';
import { isApiAmount } from '../domain/money-text.js';
import { checkExtraFields, foreignRecordFields, type ForeignRecordFields } from './foreign-orders.js';
import type { RateLimit } from './rate-limiter.js';
import type { SandboxOptions, TronAccountSeed } from './types.js';

export interface ResolvedOptions {
  host: string;
  port: number;
  apiKey: string;
  apiSecret: string;
  startingBalance: string;
  deliverAfterMs: number;
  hourMs: number;
  rateLimit: RateLimit | false;
  bodyLimitBytes: number;
  clockOffsetSeconds: number;
  timeScale: number;
  seedOrders: number;
  tronAccounts: Record<string, TronAccountSeed>;
  foreignOrders: ForeignRecordFields[];
  extraFields: Record<string, unknown>;
  listOrder: 'newest-first' | 'oldest-first';
  repeatFirstPage: boolean;
  timeAnswer: number | undefined;
  stampsAheadSeconds: number;
}

function count(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min)
    throw new RangeError(`${name} must be an integer ≥ ${min}, got ${value}`);
  return value;
}

function duration(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) throw new RangeError(`${name} must be a number ≥ ${min}, got ${value}`);
  return value;
}

function listOrder(value: SandboxOptions['listOrder']): ResolvedOptions['listOrder'] {
  if (value === undefined || value === 'newest-first' || value === 'oldest-first') return value ?? 'newest-first';
  throw new RangeError(`listOrder must be 'newest-first' or 'oldest-first', got ${String(value)}`);
}

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const apiKey = options.apiKey ?? `sbx_${randomBytes(8).toString('hex')}`;
  // The key sits between the scheme's space and the ':' of the Authorization header.
  if (!/^[^\s:]+$/.test(apiKey)) throw new RangeError('apiKey must be non-empty, without spaces or ":"');
  const apiSecret = options.apiSecret ?? randomBytes(32).toString('base64url');
  if (apiSecret === '') throw new RangeError('apiSecret must not be empty');
  const startingBalance = options.startingBalance ?? '1000.000000';
  if (!isApiAmount(startingBalance))
    throw new RangeError(`startingBalance must have six decimals, got ${startingBalance}`);
  const port = count('port', options.port ?? 0, 0);
  if (port > 65_535) throw new RangeError(`port must be at most 65535, got ${port}`);
  return {
    host: options.host ?? '127.0.0.1',
    port,
    apiKey,
    apiSecret,
    startingBalance,
    deliverAfterMs: duration('deliverAfterMs', options.deliverAfterMs ?? 1500, 0),
    hourMs: duration('hourMs', options.hourMs ?? 3_600_000, 0),
    rateLimit: options.rateLimit ?? { perSecond: 200, burst: 400 },
    bodyLimitBytes: count('bodyLimitBytes', options.bodyLimitBytes ?? 16_384, 0),
    clockOffsetSeconds: duration('clockOffsetSeconds', options.clockOffsetSeconds ?? 0, -Infinity),
    timeScale: duration('timeScale', options.timeScale ?? 1, Number.MIN_VALUE),
    seedOrders: count('seedOrders', options.seedOrders ?? 0, 0),
    tronAccounts: options.tronAccounts ?? {},
    foreignOrders: (options.foreignOrders ?? []).map(foreignRecordFields),
    extraFields: checkExtraFields('extraFields', options.extraFields),
    listOrder: listOrder(options.listOrder),
    repeatFirstPage: options.repeatFirstPage ?? false,
    // Any integer, negative ones included: a wild time is the point.
    timeAnswer: options.timeAnswer === undefined ? undefined : count('timeAnswer', options.timeAnswer, -Infinity),
    stampsAheadSeconds: count('stampsAheadSeconds', options.stampsAheadSeconds ?? 0, -Infinity),
  };
}
