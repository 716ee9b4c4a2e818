import { UsageError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';

const LOOPBACK_V4 = /^127\.(?:\d{1,3})\.(?:\d{1,3})\.(?:\d{1,3})$/;

/**
 * The one loopback rule, for plain http:// and for bypassing a proxy: `localhost`, 127.0.0.0/8 and `[::1]`
 * as a URL writes them. Not `*.localhost` nor `localhost.`: a resolver may send those off the machine, and a
 * secret-signed request in clear text must never follow.
 */
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
    throw new UsageError(`"${printable(text, 100)}" is not a URL: use e.g. https://api.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${what} ${printable(text, 100)} must start with https://`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${what} ${url.origin} uses http:// for a host that is not loopback: use https://`, {
      hint: 'plain http is allowed only for localhost, 127.0.0.0/8 and [::1]',
    });
  }
  if (url.username !== '' || url.password !== '')
    throw new UsageError(`the ${what} must not contain a user name or password`);
  if (url.search !== '' || url.hash !== '') throw new UsageError(`the ${what} must not contain a query or a fragment`);
  // The spec writes paths as /v1/…; a base URL that already ends in /v1 would send /v1/v1/… and get 404s.
  const prefix = url.pathname.replace(/\/+$/, '');
  if (what === 'base URL' && /\/v1$/i.test(prefix)) {
    const without = `${url.origin}${prefix.slice(0, -3)}`;
    throw new UsageError(`the base URL ${url.origin}${prefix} ends in /v1: give it without, as ${without}`, {
      hint: 'energy adds /v1/… to every request itself',
    });
  }
  return url;
}
