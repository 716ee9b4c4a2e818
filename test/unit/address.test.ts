import { describe, expect, it } from 'vitest';
import { checkTronAddress, encodeTronAddress } from '../../src/domain/address.js';

// Checked outside the project with Python's hashlib (double SHA-256 checksum, version byte 0x41).
const VALID = [
  'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
  'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
];

describe('checkTronAddress', () => {
  it.each(VALID)('accepts %s', (address) => {
    expect(checkTronAddress(address)).toEqual({ ok: true });
  });

  it.each([
    ['a bad checksum', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', /checksum/],
    ['a wrong prefix (a Bitcoin address)', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', /prefix|length/],
    ['a wrong length', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6', /length/],
    ['an empty string', '', /length/],
    ['a hex address', '41a614f803b6fd780986a42c78ec9c7f77e6ded13c', /base58|length/],
    ['the character 0', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60', /"0" is not a base58/],
    ['the character l', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLjlt', /"l" is not a base58/],
    ['a space', 'TR7NHqjeKQxGTCi8q8ZY4pL8ot zgjLj6t', /base58/],
  ])('refuses %s', (_label, address, reason) => {
    const result = checkTronAddress(address);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(reason);
  });

  it('refuses a 25-byte payload whose version byte is not 0x41', () => {
    const payload = Buffer.alloc(21, 7);
    payload[0] = 0x42;
    const result = checkTronAddress(encodeTronAddress(payload));
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/prefix/) });
  });
});

describe('encodeTronAddress', () => {
  it('round-trips a known address', () => {
    // TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t is 41a614f803b6fd780986a42c78ec9c7f77e6ded13c in hex.
    const payload = Buffer.from('41a614f803b6fd780986a42c78ec9c7f77e6ded13c', 'hex');
    expect(encodeTronAddress(payload)).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });
});
