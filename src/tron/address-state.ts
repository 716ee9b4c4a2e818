/** What an address has on chain now, from the node's counters (pure). */
import type { AccountInfo, AccountResource } from './tron-types.js';

/** `energy address --json`, field for field as the contract names them. */
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

export function addressState(address: string, account: AccountInfo, resource: AccountResource): AddressState {
  return {
    address,
    activated: account.activated,
    energy_available: remaining(resource.EnergyLimit, resource.EnergyUsed),
    energy_limit: resource.EnergyLimit,
    energy_used: resource.EnergyUsed,
    // Free daily bandwidth plus staked or delegated bandwidth, each on its own.
    bandwidth_available:
      remaining(resource.freeNetLimit, resource.freeNetUsed) + remaining(resource.NetLimit, resource.NetUsed),
  };
}
