/**
 * The sandbox's TRON node (`/wallet/...`), answering as java-tron does: HTTP 200 with `{"Error": …}` for a
 * request it cannot read, `{}` for an unactivated address, zero counters left out, and a simulated USDT
 * transfer that reverts, the live way, when the sender lacks the tokens.
 */
import { randomBytes } from 'node:crypto';
import { checkTronAddress, encodeTronAddress } from '../domain/address.js';
import { TRANSFER_SELECTOR, decodeTransferParameter } from '../tron/abi.js';
import { USDT_MAINNET } from '../tron/tokens.js';
import { jsonReply, type Reply } from './reply.js';
import type { RouteContext } from './route-context.js';

import { USDT_TRANSFER_ENERGY, USDT_TRANSFER_ENERGY_NEW_HOLDER } from './energy-figures.js';
/** What that live revert burned, penalty included. */
const REVERT_ENERGY = 8_624;
const REVERT_PENALTY = 5_859;

function javaError(message: string): Reply {
  return jsonReply(200, { Error: `class java.lang.IllegalArgumentException : ${message}` });
}

function field(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined;
}

/** The base58 address in `key`, or the Error reply java-tron gives for it. */
function addressIn(body: unknown, key: string): string | Reply {
  const value = field(body, key);
  if (field(body, 'visible') !== true) return javaError('this node expects "visible": true with base58 addresses');
  if (typeof value !== 'string' || !checkTronAddress(value).ok) return javaError(`Invalid ${key}`);
  return value;
}

function record({ core, headers }: RouteContext, path: string): void {
  const key = headers['tron-pro-api-key'];
  core.tron.requests.push({ path, apiKey: Array.isArray(key) ? key[0] : key });
}

/** An account read: one base58 `address` in, the sandbox chain's view of that account out. */
function accountRead(
  path: string,
  read: (tron: RouteContext['core']['tron'], address: string, nowMs: number) => unknown,
) {
  return (context: RouteContext): Reply => {
    record(context, path);
    const address = addressIn(context.body, 'address');
    if (typeof address !== 'string') return address;
    return jsonReply(200, read(context.core.tron, address, context.nowMs));
  };
}

export const getAccountResource = accountRead('/wallet/getaccountresource', (tron, address, nowMs) =>
  tron.accountResource(address, nowMs),
);
export const getAccount = accountRead('/wallet/getaccount', (tron, address, nowMs) => tron.account(address, nowMs));

/** The head block: a number that grows with the clock (one block per 3 s), as a node's does, behind by its lag. */
export function getNowBlock(context: RouteContext): Reply {
  record(context, '/wallet/getnowblock');
  const number = Math.floor((context.nowMs - context.core.tron.lagMs) / 3000) - 500_000_000;
  const raw_data = { number, timestamp: number * 3000 + 1_500_000_000_000 };
  return jsonReply(200, { blockID: randomBytes(32).toString('hex'), block_header: { raw_data } });
}

/**
 * The chain's parameters, as java-tron prints them (protobuf JSON: a parameter whose value is 0 has no
 * `value`): the energy fee the sandbox is set to, among a few of mainnet's others.
 */
export function getChainParameters(context: RouteContext): Reply {
  record(context, '/wallet/getchainparameters');
  const fee = context.core.tron.energyFeeSun;
  return jsonReply(200, {
    chainParameter: [
      { key: 'getMaintenanceTimeInterval', value: 21_600_000 },
      { key: 'getTransactionFee', value: 1000 },
      { key: 'getCreateAccountFee', value: 100_000 },
      fee === 0 ? { key: 'getEnergyFee' } : { key: 'getEnergyFee', value: fee },
      { key: 'getAllowTvmTransferTrc10' },
    ],
  });
}

export function triggerConstantContract(context: RouteContext): Reply {
  record(context, '/wallet/triggerconstantcontract');
  const owner = addressIn(context.body, 'owner_address');
  if (typeof owner !== 'string') return owner;
  const contract = addressIn(context.body, 'contract_address');
  if (typeof contract !== 'string') return contract;
  const selector = field(context.body, 'function_selector');
  const parameter = field(context.body, 'parameter') ?? '';
  if (typeof selector !== 'string' || typeof parameter !== 'string')
    return javaError('function_selector and parameter must be strings');
  if (contract !== USDT_MAINNET) {
    return jsonReply(200, { result: { code: 'CONTRACT_VALIDATE_ERROR', message: 'Smart contract is not exist.' } });
  }
  const transfer = selector.replace(/\s+/g, '') === TRANSFER_SELECTOR ? decodeTransferParameter(parameter) : undefined;
  const { tron } = context.core;
  if (transfer === undefined || tron.usdtOf(owner) < transfer.amount) return reverted();
  const recipient = encodeTronAddress(Buffer.from(`41${transfer.toAccountId}`, 'hex'));
  const energy = tron.usdtOf(recipient) > 0n ? USDT_TRANSFER_ENERGY : USDT_TRANSFER_ENERGY_NEW_HOLDER;
  return jsonReply(200, {
    result: { result: true },
    energy_used: energy,
    constant_result: [`${'0'.repeat(63)}1`],
    transaction: transaction(),
  });
}

/**
 * A revert as a live java-tron node sends it (tron-rpc.publicnode.com, for a sender without the tokens):
 * `result.result` true, the failure only in `result.message` and `transaction.ret`, the energy burned up to
 * the revert in `energy_used`, and USDT's bare `require` leaving `constant_result` empty.
 */
function reverted(): Reply {
  return jsonReply(200, {
    result: { result: true, message: 'REVERT opcode executed' },
    constant_result: [''],
    energy_used: REVERT_ENERGY,
    energy_penalty: REVERT_PENALTY,
    transaction: { ...transaction(), ret: [{ ret: 'FAILED' }] },
  });
}

function transaction(): Record<string, unknown> {
  return {
    ret: [{}],
    visible: true,
    txID: randomBytes(32).toString('hex'),
    raw_data: { contract: [], expiration: 0, timestamp: 0 },
  };
}
