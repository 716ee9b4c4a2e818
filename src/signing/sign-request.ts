import { bodyHash } from './body-hash.js';
import { canonicalPayload } from './canonical-payload.js';
import { hmacSignature } from './signature.js';

export interface SignInput {
  method: string;
  path: string;
  /** Exactly as transmitted, with its `?`, or empty. */
  query: string;
  /** The exact bytes that will be sent; undefined for no body. */
  body: Uint8Array | string | undefined;
  /** Unix seconds; injected so that signing stays pure. */
  timestamp: number;
  apiKey: string;
  apiSecret: string;
}

export interface SignedHeaders {
  authorization: string;
  'x-request-timestamp': string;
}

/** Signs one request: returns the two headers to send with it. Pure: no clock, no I/O. */
export function signRequest(input: SignInput): SignedHeaders {
  const payload = canonicalPayload({
    timestamp: input.timestamp,
    method: input.method,
    path: input.path,
    query: input.query,
    bodyHash: bodyHash(input.body),
  });
  return {
    authorization: `HMAC-SHA256 ${input.apiKey}:${hmacSignature(input.apiSecret, payload)}`,
    'x-request-timestamp': String(input.timestamp),
  };
}
