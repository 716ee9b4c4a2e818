import { createHash } from 'node:crypto';

/**
 * Lowercase hex SHA-256 of the exact body bytes, or the empty string when there is no body (spec rule 5:
 * not the hash of an empty input). A zero-length body counts as no body.
 */
export function bodyHash(body: Uint8Array | string | undefined): string {
  if (body === undefined || body.length === 0) return '';
  return createHash('sha256').update(body).digest('hex');
}
