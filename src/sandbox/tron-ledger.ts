/**
 * The sandbox's view of the TRON chain: seeded accounts (staked energy and bandwidth, usage, USDT, activation,
 * contracts) plus the energy of its own orders, which appears in EnergyLimit once an order is delivered and
 * leaves when it expires. Activation is shared with the order book, so that the API's quotes (activation_trx) and the
 * node's `{}` always agree.
 */
import { checkTronAddress } from '../domain/address.js';
import { USDT_MAINNET } from '../tron/tokens.js';
import type { OrderBook } from './order-book.js';
import type { TronAccountSeed, TronRequestRecord } from './types.js';
import { Traffic } from './traffic.js';
import { USDT_TRANSFER_ENERGY } from './energy-figures.js';

interface Account {
  activated: boolean;
  energy: number;
  energyUsed: number;
  bandwidthUsed: number;
  bandwidth: number;
  usdt: bigint;
  contract: boolean;
}

export const FREE_BANDWIDTH = 600;
/** Mainnet-like network totals, always present in getaccountresource for an activated address. */
const NETWORK_TOTALS = {
  TotalNetLimit: 43_200_000_000,
  TotalNetWeight: 26_514_542_862,
  TotalEnergyLimit: 180_000_000_000,
  TotalEnergyWeight: 13_500_291_540,
};

const EMPTY_ACCOUNT: Account = {
  activated: true,
  energy: 0,
  energyUsed: 0,
  bandwidthUsed: 0,
  bandwidth: 0,
  usdt: 0n,
  contract: false,
};

export class TronLedger {
  private readonly accounts = new Map<string, Account>();
  readonly requests: TronRequestRecord[] = [];
  /**
   * Basis points by which delivered rentals read short, as on a live chain, where a delegation yields
   * `stake × TotalEnergyLimit / TotalEnergyWeight` and moves with the network's stake. Default 0.
   */
  energyDriftBp = 0;
  /**
   * How far this node is behind the API (ms): a delivery shows in EnergyLimit, and a block as the head,
   * only this long after the API has them, as on a load-balanced replica a few blocks behind. Default 0.
   */
  lagMs = 0;
  /** getEnergyFee: sun burnt per unit of energy (mainnet's since 2024; it has been 420, 280 and 210). */
  energyFeeSun = 100;

  /** The seeded addresses' USDT transfers (traffic.ts), to holders. */
  readonly traffic: Traffic;

  constructor(private readonly book: OrderBook) {
    this.traffic = new Traffic(
      {
        ownEnergy: (address) => this.accounts.get(address)?.energy ?? 0,
        rentals: (address) => book.rentalSpans(address),
        feeSun: () => this.energyFeeSun,
      },
      USDT_TRANSFER_ENERGY,
    );
    // The token the sandbox simulates is a contract account, as on mainnet. The order book is left alone: no
    // rental can reach a contract, so its activation price never matters.
    this.accounts.set(USDT_MAINNET, { ...EMPTY_ACCOUNT, contract: true });
  }

  seed(address: string, seed: TronAccountSeed, nowMs: number): void {
    const check = checkTronAddress(address);
    if (!check.ok) throw new RangeError(`not a TRON address (${address}): ${check.reason}`);
    for (const key of ['energy', 'energyUsed', 'bandwidthUsed', 'bandwidth'] as const) {
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
      bandwidth: seed.bandwidth ?? 0,
      usdt: seed.usdt ?? 0n,
      contract: seed.contract ?? false,
    };
    this.accounts.set(address, account);
    if (account.activated) this.book.markActivated(address);
    const perHour = seed.transfersPerHour;
    if (perHour !== undefined) {
      if (!(Number.isFinite(perHour) && perHour > 0))
        throw new RangeError(`transfersPerHour must be above 0, got ${perHour}`);
      this.traffic.add(address, perHour, account.energyUsed, nowMs);
    }
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
      NetLimit: account?.bandwidth ?? 0,
      EnergyLimit: (account?.energy ?? 0) + this.delivered(address, nowMs),
      EnergyUsed: this.traffic.has(address) ? this.traffic.usedAt(address, nowMs) : (account?.energyUsed ?? 0),
      ...NETWORK_TOTALS,
    };
    return Object.fromEntries(Object.entries(counters).filter(([, value]) => value !== 0));
  }

  private delivered(address: string, nowMs: number): number {
    const delegated = this.book.delegatedEnergy(address, nowMs, this.lagMs);
    return delegated - Math.floor((delegated * this.energyDriftBp) / 10_000);
  }

  /**
   * The node's getaccount answer: `{}` when not activated; a zero balance and the default type (Normal) left
   * out, as protobuf does; a contract's account names its type and the contract.
   */
  account(address: string, nowMs: number): Record<string, unknown> {
    if (!this.isActivated(address)) return {};
    const base = { address, create_time: nowMs - 86_400_000, account_resource: {} };
    if (this.accounts.get(address)?.contract !== true) return base;
    const name = address === USDT_MAINNET ? 'TetherToken' : 'SandboxContract';
    return { account_name: name, type: 'Contract', ...base };
  }
}
