const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_INDEX = new Map([...BASE58_ALPHABET].map((char, index) => [char, BigInt(index)]));
/** A TRON main-net account: version byte 0x41, 20 bytes of account id, 4 bytes of checksum. */
const TRON_VERSION_BYTE = 0x41;
const DECODED_LENGTH = 25;
const TEXT_LENGTH = 34;

export type AddressCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks a TRON base58check address (`T…`, 34 characters): alphabet, length, version byte and the
 * double-SHA-256 checksum. Returns the reason it is not valid rather than throwing.
 */
export function checkTronAddress(address: string): AddressCheck {
  // Length first: it is cheap, and decoding a long text to a BigInt is not.
  if (address.length !== TEXT_LENGTH) {
    return { ok: false, reason: `wrong length: a TRON address is ${TEXT_LENGTH} characters, got ${address.length}` };
  }
  const bad = [...address].find((char) => !BASE58_INDEX.has(char));
  if (bad !== undefined) {
    return { ok: false, reason: `"${bad}" is not a base58 character (0, O, I and l are never used)` };
  }
  const bytes = decodeBase58(address);
  // A 34-character text can still decode to 26 bytes.
  if (bytes.length !== DECODED_LENGTH) {
    return { ok: false, reason: `wrong length: it decodes to ${bytes.length} bytes, not ${DECODED_LENGTH}` };
  }
  if (bytes[0] !== TRON_VERSION_BYTE) {
    return { ok: false, reason: 'wrong prefix: a TRON address starts with "T" (version byte 0x41)' };
  }
  const payload = bytes.subarray(0, 21);
  const expected = doubleSha256(payload).subarray(0, 4);
  if (!expected.equals(bytes.subarray(21))) {
    return { ok: false, reason: 'bad checksum: a character is mistyped or missing' };
  }
  return { ok: true };
}

/** Encodes 21 bytes (0x41 + account id) as a TRON address; the sandbox uses it to make test addresses. */
export function encodeTronAddress(payload: Uint8Array): string {
  const withChecksum = Buffer.concat([payload, doubleSha256(payload).subarray(0, 4)]);
  let value = BigInt(`0x${withChecksum.toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of withChecksum) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/**
 * The 20-byte account id of a valid TRON address (the bytes after the 0x41 version byte), as used in
 * contract-call parameters. Throws RangeError for an invalid address: check it first.
 */
export function tronAccountId(address: string): Buffer {
  const check = checkTronAddress(address);
  if (!check.ok) throw new RangeError(`not a TRON address: ${check.reason}`);
  return decodeBase58(address).subarray(1, 21);
}

function decodeBase58(text: string): Buffer {
  let value = 0n;
  for (const char of text) value = value * 58n + (BASE58_INDEX.get(char) ?? 0n);
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
  let leadingZeros = 0;
  while (text[leadingZeros] === '1') leadingZeros += 1;
  return Buffer.concat([Buffer.alloc(leadingZeros), body]);
}

function doubleSha256(bytes: Uint8Array): Buffer {
  // Loaded on first use: node:crypto costs milliseconds at start-up that `--help` should not pay.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}
