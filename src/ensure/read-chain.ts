/** Reads many addresses from the TRON node, a bounded number at a time over its keep-alive connections. */
import { addressState, type AddressState } from '../tron/address-state.js';
import type { TronNode } from '../tron/tron-node.js';
import { mapLimit } from '../batch/pool.js';

/** Addresses read at once (two calls each, side by side). */
export const CHAIN_CONCURRENCY = 8;

export async function readAddresses(node: TronNode, addresses: readonly string[]): Promise<Map<string, AddressState>> {
  const states = await mapLimit(addresses, CHAIN_CONCURRENCY, async (address) => {
    const [account, resource] = await Promise.all([node.getAccount(address), node.getAccountResource(address)]);
    return addressState(address, account, resource);
  });
  return new Map(states.map((state) => [state.address, state]));
}
