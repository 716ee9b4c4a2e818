/**
 * ABI encoding of a TRC-20 `transfer(address,uint256)` call parameter, as `triggerconstantcontract` takes it:
 * two 32-byte big-endian words in hex, without the function selector (the node adds it from
 * `function_selector`). Pure: amounts are bigints, never JavaScript numbers.
 */
import { tronAccountId } from '../domain/address.js';

export const TRANSFER_SELECTOR = 'transfer(address,uint256)';
/** The first four bytes of keccak256("transfer(address,uint256)"), well known from every ERC-20/TRC-20 tool. */
export const TRANSFER_SELECTOR_HEX = 'a9059cbb';

const UINT256_MAX = (1n << 256n) - 1n;

/** One 32-byte ABI word for an unsigned integer. */
export function uint256Word(value: bigint): string {
  if (value < 0n || value > UINT256_MAX) throw new RangeError('a uint256 is between 0 and 2^256 - 1');
  return value.toString(16).padStart(64, '0');
}

/** One 32-byte ABI word for a TRON address: its 20-byte account id, left-padded with zeros. */
export function addressWord(address: string): string {
  return tronAccountId(address).toString('hex').padStart(64, '0');
}

/** The `parameter` of `transfer(to, amount)`: 128 hex characters. */
export function encodeTransferParameter(to: string, amount: bigint): string {
  return addressWord(to) + uint256Word(amount);
}

/** Reads the two words back (the sandbox uses it to simulate the call); undefined for a malformed parameter. */
export function decodeTransferParameter(parameter: string): { toAccountId: string; amount: bigint } | undefined {
  if (!/^[0-9a-fA-F]{128}$/.test(parameter)) return undefined;
  const addressPart = parameter.slice(0, 64).toLowerCase();
  // The 12 bytes above the 20-byte account id must be zero in a well-formed address word.
  if (!/^0{24}/.test(addressPart)) return undefined;
  return { toAccountId: addressPart.slice(24), amount: BigInt(`0x${parameter.slice(64)}`) };
}
