/** What an address has on chain now, from the node's counters (pure). */
import type { AccountResource } from './tron-types.js';

/**
 * `energy address --json`, field for field as the contract names them. Everything comes from
 * `getaccountresource` alone: java-tron answers `{}` for an account that does not exist, and every existing
 * account has at least its free bandwidth limit.
 */
export interface AddressState {
  address: string;
  activated: boolean;
  energy_available: number;
  energy_limit: number;
  energy_used: number;
  bandwidth_available: number;
}

/** Limit minus use, never below 0 (the node's use can briefly exceed a limit that has just shrunk). */
function remaining(limit: number, used: number): number {
  return Math.max(0, limit - used);
}

export function addressState(address: string, resource: AccountResource): AddressState {
  return {
    address,
    activated: !resource.empty,
    energy_available: remaining(resource.EnergyLimit, resource.EnergyUsed),
    energy_limit: resource.EnergyLimit,
    energy_used: resource.EnergyUsed,
    // Free daily bandwidth plus staked or delegated bandwidth, each on its own.
    bandwidth_available:
      remaining(resource.freeNetLimit, resource.freeNetUsed) + remaining(resource.NetLimit, resource.NetUsed),
  };
}

/** Bandwidth of one TRC-20 `transfer`: the signed transaction without `ret`, plus 64 (java-tron's BandwidthProcessor). */
export const TRC20_TRANSFER_BYTES = 345;

/**
 * How many transactions of `bytes` the address's bandwidth pays for. java-tron takes each transaction whole
 * from staked bandwidth, else whole from the free allowance, else burns TRX for all of it, so the two
 * sources count apart: 300 staked plus 300 free pay for no 345-byte transfer.
 */
export function transactionsCovered(resource: AccountResource, bytes = TRC20_TRANSFER_BYTES): number {
  const staked = remaining(resource.NetLimit, resource.NetUsed);
  const free = remaining(resource.freeNetLimit, resource.freeNetUsed);
  return Math.floor(staked / bytes) + Math.floor(free / bytes);
}
