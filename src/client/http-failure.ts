/**
 * What went wrong before a complete HTTP response arrived, in the words shown to the user, and whether the
 * request can have reached the server. Its own module so that the connection (http.ts) and the proxy tunnel
 * (proxy-tunnel.ts) both use it without importing each other.
 */
/** Failures that happen before a connection exists: the request cannot have reached the server. */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'PROXY_REFUSED',
]);

/**
 * Failures that will be the same on the next attempt: a host that does not exist, a server that does not
 * speak TLS or whose certificate is refused, an answer larger than we read.
 */
const PERMANENT_CODES = new Set(['ENOTFOUND', 'TLS_MISMATCH', 'TLS_CERTIFICATE', 'TOO_LARGE']);

/** OpenSSL's verification results and Node's name check: the certificate was refused, before any HTTP byte. */
const CERTIFICATE_CODES = new Set([
  'CERT_CHAIN_TOO_LONG',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REJECTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** A failure before a complete response arrived. */
export class HttpFailure extends Error {
  override name = 'HttpFailure';
  constructor(
    message: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** True when no byte of the request can have reached the server (it may be sent again without doubt). */
  get neverSent(): boolean {
    // A refused handshake ends before the request: TLS sends no HTTP byte until it is established.
    return NEVER_SENT_CODES.has(this.code) || this.code === 'TLS_MISMATCH' || this.code === 'TLS_CERTIFICATE';
  }

  /** False when trying again cannot help (retrying "host not found" only makes the user wait). */
  get retryable(): boolean {
    return !PERMANENT_CODES.has(this.code);
  }
}

export function toHttpFailure(error: unknown): HttpFailure {
  const message = error instanceof Error ? error.message : String(error);
  let code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN';
  // OpenSSL's text for "that was not a TLS handshake" runs over several lines; one cause, one line.
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_') || /wrong version number|packet length too long/i.test(message))
    code = 'TLS_MISMATCH';
  if (CERTIFICATE_CODES.has(code)) {
    const reason = `the server's TLS certificate was refused: ${message} (${code})`;
    return new HttpFailure(reason, 'TLS_CERTIFICATE', { cause: error });
  }
  return new HttpFailure(describeNetworkCode(code, message) ?? message, code, { cause: error });
}

function describeNetworkCode(code: string, message: string): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return message === 'socket hang up'
        ? 'the server closed the connection before answering'
        : 'connection reset by the server';
    case 'ENOTFOUND':
      return 'host not found';
    case 'EAI_AGAIN':
      return 'host name lookup failed for now (DNS)';
    case 'TLS_MISMATCH':
      return 'the server did not answer TLS; is it http://?';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'ETIMEDOUT':
      return 'connection timed out';
    default:
      return undefined;
  }
}
