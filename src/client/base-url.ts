import { UsageError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';

/**
 * The one loopback rule, for plain http:// and for bypassing a proxy: `localhost`, 127.0.0.0/8 and `[::1]`
 * as a URL writes them. Not `*.localhost` nor `localhost.`: a resolver may send those off the machine, and a
 * secret-signed request in clear text must never follow.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || isLoopbackV4(hostname);
}

/**
 * `127.d.d.d`, each d one to three digits, read without a regular expression: every request asks this twice
 * (its base URL, its proxy), and a pattern executed twice is compiled to machine code at every start (issue 48).
 */
function isLoopbackV4(hostname: string): boolean {
  const parts = hostname.split('.');
  return (
    parts.length === 4 &&
    parts[0] === '127' &&
    parts.every((part) => part.length >= 1 && part.length <= 3 && isDigits(part))
  );
}

function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

const PRIVATE_V4 = /^(?:10\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])|192\.168)\.\d{1,3}\.\d{1,3}$/;

/**
 * A private address written as such (10/8, 172.16/12, 192.168/16, fc00::/7), where people run their own
 * TRON node. Literal addresses only: a host name could resolve to anywhere.
 */
export function isPrivateAddress(hostname: string): boolean {
  return PRIVATE_V4.test(hostname) || /^\[f[cd][0-9a-f]{0,2}:/i.test(hostname);
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
  // A TRON node sends no secret (its API key aside) and its answers are only estimates: a private
  // address is allowed in clear too. The API's requests are signed with the secret: loopback only.
  const tronNode = what === 'TRON node URL';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !(tronNode && isPrivateAddress(url.hostname))) {
    throw new UsageError(`${what} ${url.origin} uses http:// for a host that is not loopback: use https://`, {
      hint: tronNode
        ? 'plain http is allowed only for localhost, 127.0.0.0/8, [::1] and private addresses (10/8, 172.16/12, 192.168/16, fc00::/7)'
        : 'plain http is allowed only for localhost, 127.0.0.0/8 and [::1]',
    });
  }
  if (url.username !== '' || url.password !== '')
    throw new UsageError(`the ${what} must not contain a user name or password`);
  if (url.search !== '' || url.hash !== '') throw new UsageError(`the ${what} must not contain a query or a fragment`);
  // The spec writes paths as /v1/…; a base URL that already ends in /v1 would send /v1/v1/… and get 404s.
  const prefix = withoutTrailingSlashes(url.pathname);
  if (what === 'base URL' && prefix.slice(-3).toLowerCase() === '/v1') {
    const without = `${url.origin}${prefix.slice(0, -3)}`;
    throw new UsageError(`the base URL ${url.origin}${prefix} ends in /v1: give it without, as ${without}`, {
      hint: 'energy adds /v1/… to every request itself',
    });
  }
  return url;
}

/**
 * A path without the slashes it ends in (`/api//` → `/api`, `/` → ``). Not a regular expression: every
 * command's base URL goes through here, and V8 compiles a pattern at its first use in each process.
 */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end -= 1;
  return path.slice(0, end);
}
