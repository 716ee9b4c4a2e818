/** The five parts of a request that the signature covers. */
export interface CanonicalParts {
  /** Unix seconds, the same value as the X-Request-Timestamp header. */
  timestamp: number;
  method: string;
  /** The request path only, e.g. `/v1/energy/orders`. */
  path: string;
  /** The transmitted query string with its leading `?`, or the empty string. */
  query: string;
  /** From {@link bodyHash}: lowercase hex, or empty when there is no body. */
  bodyHash: string;
}

/**
 * `{timestamp}\n{METHOD}\n{path}\n{query}\n{bodyHash}` exactly as the spec's rules 1–7 say. A GET with no
 * query therefore ends with two empty segments and a trailing line feed.
 */
export function canonicalPayload(parts: CanonicalParts): string {
  if (!Number.isSafeInteger(parts.timestamp) || parts.timestamp < 0) {
    throw new RangeError(`timestamp must be whole Unix seconds, got ${parts.timestamp}`);
  }
  if (parts.path.includes('?')) throw new RangeError('path must not contain the query');
  if (parts.query !== '' && !parts.query.startsWith('?')) {
    throw new RangeError('query must be empty or start with "?"');
  }
  return [String(parts.timestamp), parts.method.toUpperCase(), parts.path, parts.query, parts.bodyHash].join('\n');
}
