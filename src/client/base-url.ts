import { UsageError } from '../errors.js';

const LOOPBACK_V4 = /^127\.(?:\d{1,3})\.(?:\d{1,3})\.(?:\d{1,3})$/;

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || LOOPBACK_V4.test(hostname);
}

/**
 * Checks a base URL before any connection: `https://` anywhere, `http://` only on loopback (a secret-signed
 * request in clear text is readable by anyone on the path), no credentials, query or fragment.
 */
export function parseBaseUrl(text: string, what = 'base URL'): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`"${text}" is not a URL: use e.g. https://api.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${what} ${text} must start with https://`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${what} ${url.origin} uses http:// for a host that is not loopback: use https://`, {
      hint: 'plain http is allowed only for localhost, 127.0.0.0/8 and [::1]',
    });
  }
  if (url.username !== '' || url.password !== '') throw new UsageError(`the ${what} must not contain a user name or password`);
  if (url.search !== '' || url.hash !== '') throw new UsageError(`the ${what} must not contain a query or a fragment`);
  return url;
}
