/**
 * The sandbox's own reading of the spec's signing rules (Authentication, rules 1-7), written apart from
 * src/signing on purpose: end-to-end tests check the client's signatures against this, so that a mistake in
 * the client's signer shows up as a 401 instead of agreeing with itself. It works on the request as received:
 * bytes in, bytes out, nothing parsed or re-encoded.
 */
import { createHash, createHmac } from 'node:crypto';

export interface ReceivedRequest {
  /** The X-Request-Timestamp value, already checked to be whole seconds. */
  timestamp: number;
  method: string;
  /** The path of the request line, up to the '?'. */
  path: string;
  /** The rest of the request line from the '?' on, or ''. */
  query: string;
  /** The body bytes as received; zero bytes means no body. */
  body: Buffer;
}

const LF = Buffer.from('\n');

/** `{timestamp}\n{METHOD}\n{path}\n{query}\n{bodyHash}` as the UTF-8 bytes that are signed. */
export function canonicalRequest(request: ReceivedRequest): Buffer {
  // Rule 5: no body has an empty hash, not the SHA-256 of nothing.
  const hash = request.body.length === 0 ? '' : createHash('sha256').update(request.body).digest('hex');
  const segments = [String(request.timestamp), request.method.toUpperCase(), request.path, request.query, hash];
  const parts: Buffer[] = [];
  segments.forEach((segment, index) => {
    if (index > 0) parts.push(LF);
    parts.push(Buffer.from(segment, 'utf8'));
  });
  return Buffer.concat(parts);
}

/** The base64 HMAC-SHA256 of the canonical bytes, keyed with the secret's UTF-8 bytes. */
export function requestSignature(secret: string, canonical: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(canonical).digest('base64');
}
