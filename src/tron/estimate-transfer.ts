/**
 * The energy a TRC-20 transfer would use, from the node's simulation. A simulation that would fail on chain
 * is the input's problem (exit 2, its own message); a node that cannot simulate at all is a service failure.
 */
import { TransferRevertedError, UsageError } from '../domain/errors.js';
import { TronNodeError } from '../domain/errors.js';
import type { TronNode } from './tron-node.js';
import { readableMessage } from './tron-schemas.js';
import type { TransferSimulation } from './tron-types.js';

export interface TransferEstimate {
  /** Energy the call uses, penalty included (as the node reports it). */
  energyUsed: number;
  /** The part of energyUsed that is the contract's dynamic-energy penalty. */
  energyPenalty: number;
}

export async function estimateTransfer(node: TronNode, simulation: TransferSimulation): Promise<TransferEstimate> {
  const result = await node.simulateTransfer(simulation);
  if (result.ok) return { energyUsed: result.energyUsed, energyPenalty: result.energyPenalty };
  const said = [result.code, result.message === undefined ? undefined : readableMessage(result.message)]
    .filter((part) => part)
    .join(': ');
  const reason = result.revertReason === undefined ? '' : ` ("${result.revertReason}")`;
  if (result.code === 'CONTRACT_EXE_ERROR' || /revert/i.test(result.message ?? '')) {
    throw new TransferRevertedError(`the simulated transfer reverts: ${said || 'no reason given'}${reason}`, {
      hint: `does ${simulation.from} hold at least ${simulation.amount} unit${String(simulation.amount) === '1' ? '' : 's'} of ${simulation.token}? Try --from with an address that holds the token, or a smaller --amount`,
    });
  }
  if (result.code === 'CONTRACT_VALIDATE_ERROR') {
    throw new UsageError(`the TRON node cannot simulate this call: ${said}`, {
      hint: `is ${simulation.token} a TRC-20 contract on the network of ${node.origin}?`,
    });
  }
  throw new TronNodeError(
    `${node.origin} POST /wallet/triggerconstantcontract did not simulate the transfer: ${said || 'no reason given'}`,
  );
}
