/**
 * Opaque list cursors: base64url of the creation sequence number of the next (older) order to show. Sequence
 * numbers never change, so a cursor stays valid and stable while new orders arrive.
 */
const DECODED = /^o:(0|[1-9]\d{0,14})(:again)?$/;

/** `again`: another spelling of the same position (SandboxOptions.repeatFirstPage's fresh cursor). */
export function encodeCursor(seq: number, again = false): string {
  return Buffer.from(`o:${seq}${again ? ':again' : ''}`, 'utf8').toString('base64url');
}

/** The sequence number, or undefined for anything this sandbox did not issue. */
export function decodeCursor(text: string): number | undefined {
  const match = DECODED.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (match === null) return undefined;
  const seq = Number(match[1]);
  // Base64url decoding is lenient; only the canonical spelling is accepted.
  return encodeCursor(seq, match[2] !== undefined) === text ? seq : undefined;
}
