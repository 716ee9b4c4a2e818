/** The transfer parameter against known answers from test/fixtures/make-abi-vectors.py (another implementation). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tronAccountId } from '../../../src/domain/address.js';
import {
  TRANSFER_SELECTOR_HEX,
  decodeTransferParameter,
  encodeTransferParameter,
  uint256Word,
} from '../../../src/tron/abi.js';

interface Vector {
  to: string;
  account_id: string;
  amount: string;
  parameter: string;
}
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/abi-vectors.json', import.meta.url), 'utf8')) as {
  selector: string;
  vectors: Vector[];
};

describe('transfer(address,uint256) parameter', () => {
  it('has the selector derived independently with Keccak-256', () => {
    expect(fixture.selector).toBe(TRANSFER_SELECTOR_HEX);
  });

  it.each(fixture.vectors)('encodes $amount to $to', ({ to, account_id, amount, parameter }) => {
    expect(tronAccountId(to).toString('hex')).toBe(account_id);
    expect(encodeTransferParameter(to, BigInt(amount))).toBe(parameter);
    expect(decodeTransferParameter(parameter)).toEqual({ toAccountId: account_id, amount: BigInt(amount) });
  });

  it('refuses amounts outside uint256 and addresses that are not TRON addresses', () => {
    expect(() => uint256Word(-1n)).toThrow(RangeError);
    expect(() => uint256Word(1n << 256n)).toThrow(RangeError);
    expect(() => encodeTransferParameter('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T', 1n)).toThrow(/checksum/);
  });

  it('reads back nothing from a malformed parameter', () => {
    expect(decodeTransferParameter('00')).toBeUndefined();
    expect(decodeTransferParameter('1'.repeat(128))).toBeUndefined();
  });
});
