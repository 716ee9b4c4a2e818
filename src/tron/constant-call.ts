/**
 * Reading `triggerconstantcontract`. java-tron's HTTP servlet sets `result.result: true` whenever the VM
 * returns, and a REVERT returns: the failure shows only in `result.message` ("REVERT opcode executed") and in
 * `transaction.ret[0].ret: "FAILED"`, with the energy burned up to the revert in `energy_used`
 * (TriggerConstantContractServlet, Wallet.callConstantContract). So success is the absence of every failure
 * sign, never `result.result` alone: an energy figure from a failed call would under-buy.
 */
import { type Check } from '../client/shape.js';
import { ShapeMismatch } from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import { counter, describe, optionalString, record } from './tron-schemas.js';
import type { ConstantCallResult, SimulationFailure } from './tron-types.js';

/** True when any `transaction.ret[]` entry says the call failed (`ret: "FAILED"`, or a contractRet not SUCCESS). */
function failedRet(transaction: unknown): boolean {
  if (typeof transaction !== 'object' || transaction === null) return false;
  const ret = (transaction as Record<string, unknown>).ret;
  if (!Array.isArray(ret)) return false;
  return ret.some((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return false;
    const { ret: status, contractRet } = entry as Record<string, unknown>;
    return status === 'FAILED' || (typeof contractRet === 'string' && contractRet !== 'SUCCESS');
  });
}

/**
 * reverted: the call runs and fails (the input's problem, exit 2) · invalid: the node cannot run it at all,
 * e.g. no contract at that address (exit 2) · node: the node failed (exit 7).
 */
function failureKind(code: string | undefined): SimulationFailure {
  if (code === undefined || code === 'SUCCESS' || code === 'CONTRACT_EXE_ERROR') return 'reverted';
  return code === 'CONTRACT_VALIDATE_ERROR' ? 'invalid' : 'node';
}

export const constantCallResult: Check<ConstantCallResult> = (value, path) => {
  const body = record(value, path);
  const result = record(body.result, 'result');
  if (result.result !== undefined && typeof result.result !== 'boolean') {
    throw new ShapeMismatch(`result.result should be true or false, got ${describe(result.result)}`);
  }
  const code = optionalString(result, 'code', 'result.');
  const message = optionalString(result, 'message', 'result.');
  const energyUsed = counter(body, 'energy_used');
  const failed = failedRet(body.transaction);
  const succeeded =
    result.result === true && message === undefined && !failed && (code === undefined || code === 'SUCCESS');
  if (succeeded) return { ok: true, energyUsed, energyPenalty: counter(body, 'energy_penalty') };
  const constant = body.constant_result;
  const first = Array.isArray(constant) && typeof constant[0] === 'string' ? constant[0] : undefined;
  return {
    ok: false,
    failure: failureKind(code),
    code,
    message,
    failedRet: failed,
    energyUsed,
    revertReason: first === undefined ? undefined : decodeRevertReason(first),
  };
};

/** The text of a Solidity `Error(string)` revert (selector 08c379a0), if that is what the data is. */
export function decodeRevertReason(hex: string): string | undefined {
  if (!/^08c379a0[0-9a-fA-F]{128,}$/.test(hex)) return undefined;
  const data = Buffer.from(hex.slice(8), 'hex');
  const length = Number(data.readBigUInt64BE(56));
  if (64 + length > data.length) return undefined;
  return printable(data.subarray(64, 64 + length).toString('utf8'));
}
