import { createHmac } from 'node:crypto';

/** Base64 HMAC-SHA256 of the canonical payload (UTF-8), keyed with the API secret. */
export function hmacSignature(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload, 'utf8').digest('base64');
}
