/**
 * Receivers that can never get rented energy. The provider delegates staked TRX on chain, and java-tron
 * refuses a delegation to a contract account (DelegateResourceActuator: "Do not allow delegate resources to
 * contract addresses"), so an order for one could only fail: refuse it before any quote.
 */
import { UsageError } from '../domain/errors.js';
import { USDT_MAINNET } from './tokens.js';
import type { TronNode } from './tron-node.js';

/** Contracts known without asking the node. */
const KNOWN_CONTRACTS = new Set([USDT_MAINNET]);

export function contractReceiverError(address: string): UsageError {
  return new UsageError(
    `${address} is a smart contract: TRON does not delegate energy to contract accounts, so no rental can reach it`,
    {
      hint: 'rent energy for the address that sends the transactions (the caller pays the energy), not for the token contract',
    },
  );
}

/** Throws exit 2 when `address` is a contract account: known ones at once, others by the node's `getaccount`. */
export async function refuseContractReceiver(node: TronNode, address: string): Promise<void> {
  if (KNOWN_CONTRACTS.has(address)) throw contractReceiverError(address);
  if ((await node.getAccount(address)).contract) throw contractReceiverError(address);
}
