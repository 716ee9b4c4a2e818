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

/** Failures that will be the same on the next attempt: a host that does not exist, a server that does not speak TLS. */
const PERMANENT_CODES = new Set(['ENOTFOUND', 'TLS_MISMATCH']);

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
    return NEVER_SENT_CODES.has(this.code) || this.code === 'TLS_MISMATCH';
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
