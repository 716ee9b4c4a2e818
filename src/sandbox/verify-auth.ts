/**
 * Checks the HMAC-SHA256 signature against the canonical payload rebuilt from the request exactly as it was
 * received: raw path, raw query (with its '?'), raw body bytes. Nothing is parsed and re-serialised first,
 * so a client that signs anything other than what it sends is caught. The canonical string is the sandbox's
 * own (canonical-request.ts), not the client's signer: a second opinion, not a mirror.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { canonicalRequest, requestSignature } from './canonical-request.js';
import { problemReply, type Reply } from './reply.js';

/** Spec: "within five minutes of server time". */
export const MAX_SKEW_SECONDS = 300;
const SCHEME = 'HMAC-SHA256';
const CREDENTIALS = /^HMAC-SHA256 ([^\s:]+):(\S+)$/;
const SECONDS = /^\d+$/;

export interface AuthInput {
  method: string;
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  serverSeconds: number;
  apiKey: string;
  apiSecret: string;
}

export type AuthOutcome = { ok: true; apiKey: string } | { ok: false; reply: Reply };

function unauthorized(code: string, detail: string): AuthOutcome {
  return { ok: false, reply: problemReply(401, code, detail) };
}

/** Constant-time string comparison; a length difference is not secret. */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

export function verifyAuth(input: AuthInput): AuthOutcome {
  const authorization = input.headers.authorization;
  const timestampHeader = input.headers['x-request-timestamp'];
  if (authorization === undefined || authorization === '') {
    return unauthorized('AUTH_MISSING', 'The Authorization header is missing.');
  }
  if (typeof timestampHeader !== 'string' || timestampHeader === '') {
    return unauthorized('AUTH_MISSING', 'The X-Request-Timestamp header is missing.');
  }
  const credentials = CREDENTIALS.exec(authorization);
  if (credentials === null) {
    const scheme = authorization.split(' ', 1)[0] ?? '';
    return unauthorized(
      'AUTH_SCHEME',
      scheme === SCHEME
        ? `Malformed credentials: expected "${SCHEME} {api_key}:{base64_signature}".`
        : `Unsupported authorization scheme "${scheme}": expected "${SCHEME}".`,
    );
  }
  const [, key = '', signature = ''] = credentials;
  if (!sameText(key, input.apiKey)) return unauthorized('AUTH_KEY', 'Unknown API key.');

  const timestamp = SECONDS.test(timestampHeader) ? Number(timestampHeader) : Number.NaN;
  if (!Number.isSafeInteger(timestamp)) {
    return unauthorized(
      'AUTH_TIMESTAMP',
      `X-Request-Timestamp must be integer Unix seconds; server time is ${input.serverSeconds}.`,
    );
  }
  if (Math.abs(timestamp - input.serverSeconds) > MAX_SKEW_SECONDS) {
    return unauthorized(
      'AUTH_TIMESTAMP',
      `X-Request-Timestamp ${timestamp} is more than ${MAX_SKEW_SECONDS} s from server time ${input.serverSeconds}.`,
    );
  }
  const canonical = canonicalRequest({
    timestamp,
    method: input.method,
    path: input.path,
    query: input.query,
    body: input.body,
  });
  if (!sameText(signature, requestSignature(input.apiSecret, canonical))) {
    return unauthorized('AUTH_SIGNATURE', 'The signature does not match the request.');
  }
  return { ok: true, apiKey: key };
}
