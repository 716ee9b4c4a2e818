/**
 * Receivers that can never get rented energy. The provider delegates staked TRX on chain, and java-tron
 * refuses a delegation to a contract account (DelegateResourceActuator: "Do not allow delegate resources to
 * contract addresses"), so an order for one could only fail: refuse it before any quote.
 */
import { CliError, ExitCode, UsageError } from '../domain/errors.js';
import { USDT_MAINNET } from './tokens.js';
import type { TronNode } from './tron-node.js';

/** Contracts known without asking the node. */
const KNOWN_CONTRACTS = new Set([USDT_MAINNET]);

/** A contract known without asking the node (USDT's): refused with no request at all. */
export function isKnownContract(address: string): boolean {
  return KNOWN_CONTRACTS.has(address);
}

export function contractReceiverError(address: string): UsageError {
  return new UsageError(
    `${address} is a smart contract: TRON does not delegate energy to contract accounts, so no rental can reach it`,
    {
      hint: 'rent energy for the address that sends the transactions (the caller pays the energy), not for the token contract',
    },
  );
}

/** A node that cannot answer (down, limiting, refusing the key): the check is a safety net, so it is said and the command goes on. */
const NODE_FAILURES: ReadonlySet<number> = new Set([ExitCode.service, ExitCode.rateLimited, ExitCode.auth]);

function unanswered(error: unknown): error is CliError {
  return error instanceof CliError && NODE_FAILURES.has(error.exitCode);
}

/**
 * Whether the node says `address` is a contract account; a node that cannot answer gives its error back
 * instead (a batch says it once and stops asking, rather than once per line); any other failure throws.
 */
export async function askContractAccount(tron: TronNode, address: string): Promise<boolean | CliError> {
  try {
    return (await tron.getAccount(address)).contract;
  } catch (error) {
    if (unanswered(error)) return error;
    throw error;
  }
}

/**
 * For `quote` and `order create`: throws exit 2 when `address` is a contract account. Known contracts are
 * refused at once; others by the node's `getaccount` when `node` gives one (a TRON node is configured). A
 * node that cannot be read costs a note on stderr, not the command.
 */
export async function refuseContractReceiver(
  address: string,
  node: () => Promise<TronNode | undefined>,
  note: (line: string) => void,
): Promise<void> {
  if (isKnownContract(address)) throw contractReceiverError(address);
  const tron = await node();
  if (tron === undefined) return;
  const answer = await askContractAccount(tron, address);
  if (answer === true) throw contractReceiverError(address);
  if (answer instanceof CliError)
    note(`energy: could not check whether ${address} is a contract account (${answer.message}); going on`);
}
