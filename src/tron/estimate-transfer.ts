/**
 * The energy a TRC-20 transfer would use, from the node's simulation. A simulation that would fail on chain
 * is the input's problem (exit 2, its own message); a node that cannot simulate at all is a service failure.
 */
import { UsageError } from '../domain/errors.js';
import { TransferRevertedError } from '../domain/cli-errors.js';
import { TronNodeError } from '../domain/cli-errors.js';
import type { TronNode } from './tron-node.js';
import { readableMessage } from './tron-schemas.js';
import type { ConstantCallResult, TransferSimulation } from './tron-types.js';

export interface TransferEstimate {
  /** Energy the call uses, penalty included (as the node reports it). */
  energyUsed: number;
  /** The part of energyUsed that is the contract's dynamic-energy penalty. */
  energyPenalty: number;
}

type Failed = Extract<ConstantCallResult, { ok: false }>;

/** What the node said, e.g. `REVERT opcode executed` or `CONTRACT_VALIDATE_ERROR: Smart contract is not exist.` */
function nodeSaid(result: Failed): string {
  const message = result.message === undefined ? undefined : readableMessage(result.message);
  const code = result.code === 'SUCCESS' ? undefined : result.code;
  const said = [code, message].filter((part) => part).join(': ');
  if (said !== '') return said;
  return result.failedRet ? 'the node marks the call FAILED' : 'result.result is false, no reason given';
}

export async function estimateTransfer(
  node: Pick<TronNode, 'simulateTransfer' | 'url'>,
  simulation: TransferSimulation,
): Promise<TransferEstimate> {
  const result = await node.simulateTransfer(simulation);
  if (result.ok) return { energyUsed: result.energyUsed, energyPenalty: result.energyPenalty };
  const said = nodeSaid(result);
  if (result.failure === 'reverted') {
    const reason = result.revertReason === undefined ? '' : ` ("${result.revertReason}")`;
    throw new TransferRevertedError(`the simulated transfer reverts: ${said}${reason}`, {
      hint: `does ${simulation.from} hold at least ${simulation.amount} unit${String(simulation.amount) === '1' ? '' : 's'} of ${simulation.token}, and does the token allow this transfer? Try --from with an address that holds the token, or a smaller --amount`,
    });
  }
  if (result.failure === 'invalid') {
    throw new UsageError(`the TRON node cannot simulate this call: ${said}`, {
      hint: `is ${simulation.token} a TRC-20 contract on the network of ${node.url}?`,
    });
  }
  throw new TronNodeError(`${node.url} POST /wallet/triggerconstantcontract did not simulate the transfer: ${said}`);
}
