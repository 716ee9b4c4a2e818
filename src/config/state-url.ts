/**
 * The shared state store's address (ENERGY_STATE_URL, setting `state-url`, option --state-url): a
 * `postgresql://` URL in libpq's form. Its password is never printed: every message shows it redacted.
 */
import { UsageError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';

const SCHEMES = new Set(['postgresql:', 'postgres:']);
const REDACTED = '***';

/**
 * The text as a URL; libpq's `postgresql://user@/db?host=/dir` (no host before the path) is one too, which
 * WHATWG's parser refuses: it is read with a stand-in host.
 */
function asUrl(text: string): URL {
  try {
    return new URL(text);
  } catch (error) {
    if (!/^[a-z]+:\/\/[^/?#]*@\//i.test(text)) throw error;
    return new URL(text.replace(/@\//, '@localhost/'));
  }
}

/** The URL, checked: a PostgreSQL one, else a usage error (the text shown redacted). */
export function parseStateUrl(text: string): URL {
  let url: URL;
  try {
    url = asUrl(text);
  } catch {
    // Not echoed: a mistyped URL may hold a password where no rule can find it.
    throw new UsageError('state-url is not a URL (not shown: it may hold a password)', { hint: STATE_URL_HINT });
  }
  if (!SCHEMES.has(url.protocol))
    throw new UsageError(`state-url must be a postgresql:// URL, not ${printable(url.protocol, 20)}`, {
      hint: STATE_URL_HINT,
    });
  return url;
}

const STATE_URL_HINT =
  'e.g. postgresql://energy@db.internal/energy or postgresql:///energy?host=/run/postgresql (password from PGPASSWORD or PGPASSFILE)';

/** True when the URL carries a password (in its user part or as `password=`): such a URL is a secret. */
export function hasPassword(text: string): boolean {
  try {
    const url = asUrl(text);
    return url.password !== '' || url.searchParams.has('password');
  } catch {
    return /:[^/@]*@/.test(text) || /[?&]password=/i.test(text);
  }
}

/**
 * The URL with its password replaced by `***`, for every message, `config list` and `doctor`: the text as given
 * otherwise (not normalised), whatever stands between "://user:" and the last "@", and any password= value.
 */
export function redactStateUrl(text: string): string {
  return text
    .replace(/(:\/\/[^:/@?#]*:)[^/?#]*@/, `$1${REDACTED}@`)
    .replace(/([?&]password=)[^&#]*/gi, `$1${REDACTED}`);
}
