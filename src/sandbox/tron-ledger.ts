/**
 * The sandbox's view of the TRON chain: seeded accounts (staked energy, usage, USDT, activation) plus the
 * energy of its own orders, which appears in EnergyLimit once an order is delivered and leaves when it
 * expires. Activation is shared with the order book, so that the API's quotes (activation_trx) and the
 * node's `{}` always agree.
 */
import { checkTronAddress } from '../domain/address.js';
import type { OrderBook } from './order-book.js';

export interface TronAccountSeed {
  /** Default true; false answers `{}` until an order to the address is delivered. */
  activated?: boolean;
  /** Energy the address holds by itself (staked or delegated elsewhere). Default 0. */
  energy?: number;
  /** Energy used in the current window. Default 0. */
  energyUsed?: number;
  /** Free bandwidth used (of 600). Default 0. */
  bandwidthUsed?: number;
  /** USDT held, in its smallest unit (6 decimals). Default 0. */
  usdt?: bigint;
}

interface Account {
  activated: boolean;
  energy: number;
  energyUsed: number;
  bandwidthUsed: number;
  usdt: bigint;
}

/** One TRON node request as the sandbox saw it, for tests that count effects. */
export interface TronRequestRecord {
  path: string;
  apiKey: string | undefined;
}

export const FREE_BANDWIDTH = 600;
/** Mainnet-like network totals, always present in getaccountresource for an activated address. */
const NETWORK_TOTALS = {
  TotalNetLimit: 43_200_000_000,
  TotalNetWeight: 26_514_542_862,
  TotalEnergyLimit: 180_000_000_000,
  TotalEnergyWeight: 13_500_291_540,
};

export class TronLedger {
  private readonly accounts = new Map<string, Account>();
  readonly requests: TronRequestRecord[] = [];

  constructor(private readonly book: OrderBook) {}

  seed(address: string, seed: TronAccountSeed): void {
    const check = checkTronAddress(address);
    if (!check.ok) throw new RangeError(`not a TRON address (${address}): ${check.reason}`);
    for (const key of ['energy', 'energyUsed', 'bandwidthUsed'] as const) {
      const value = seed[key];
      if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0))
        throw new RangeError(`${key} must be a non-negative integer, got ${value}`);
    }
    if (seed.usdt !== undefined && seed.usdt < 0n) throw new RangeError('usdt must not be negative');
    const account: Account = {
      activated: seed.activated ?? true,
      energy: seed.energy ?? 0,
      energyUsed: seed.energyUsed ?? 0,
      bandwidthUsed: seed.bandwidthUsed ?? 0,
      usdt: seed.usdt ?? 0n,
    };
    this.accounts.set(address, account);
    if (account.activated) this.book.markActivated(address);
  }

  isActivated(address: string): boolean {
    return this.accounts.get(address)?.activated === true || this.book.isActivated(address);
  }

  usdtOf(address: string): bigint {
    return this.accounts.get(address)?.usdt ?? 0n;
  }

  /** The node's getaccountresource answer: zero counters left out, `{}` when not activated. */
  accountResource(address: string, nowMs: number): Record<string, number> {
    if (!this.isActivated(address)) return {};
    const account = this.accounts.get(address);
    const counters: Record<string, number> = {
      freeNetLimit: FREE_BANDWIDTH,
      freeNetUsed: account?.bandwidthUsed ?? 0,
      EnergyLimit: (account?.energy ?? 0) + this.book.delegatedEnergy(address, nowMs),
      EnergyUsed: account?.energyUsed ?? 0,
      ...NETWORK_TOTALS,
    };
    return Object.fromEntries(Object.entries(counters).filter(([, value]) => value !== 0));
  }

  /** The node's getaccount answer: `{}` when not activated; a zero balance is left out, as protobuf does. */
  account(address: string, nowMs: number): Record<string, unknown> {
    if (!this.isActivated(address)) return {};
    return { address, create_time: nowMs - 86_400_000, account_resource: {} };
  }
}
