/** Deterministic valid TRON addresses for tests, distinct from the sandbox's own. */
import { encodeTronAddress } from '../../../src/domain/address.js';

export function testAddress(n: number): string {
  const id = Buffer.alloc(20, 0x11);
  id.writeUInt32BE(n, 0);
  return encodeTronAddress(Buffer.concat([Buffer.from([0x41]), id]));
}
