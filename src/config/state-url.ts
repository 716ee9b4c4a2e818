/**
 * The shared state store's address (ENERGY_STATE_URL, setting `state-url`, option --state-url): a
 * `postgresql://` URL in libpq's form. Its password is never printed: every message shows it redacted. The
 * libpq parameters energy acts on are checked as libpq checks them, when the URL is set and when it is used.
 */
import { UsageError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';

const SCHEMES = new Set(['postgresql:', 'postgres:']);
const REDACTED = '***';

/** libpq's sslmode values; `allow` tries a plain connection first, which is all energy does with it. */
export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
/** The integer parameters, read as libpq's parse_int_param reads them. */
const INTEGER_PARAMETERS = ['connect_timeout', 'keepalives', 'keepalives_idle', 'port'] as const;

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

/** The integer parameters energy acts on, as the URL gives them. */
export type IntegerParameter = (typeof INTEGER_PARAMETERS)[number];

/**
 * The state URL as read once, where the setting is (commands/context.ts, `config set`): the store, its sessions
 * and their messages take this value, and nothing below reads the text again.
 */
export interface StateUrl {
  /** As given: for the driver alone, since it may hold a password. */
  readonly text: string;
  readonly url: URL;
  /** The text with its password replaced by `***`: what every message shows. */
  readonly redacted: string;
  /** The URL's sslmode, checked; undefined where it has none (PGSSLMODE may then say). */
  readonly sslmode: (typeof SSL_MODES)[number] | undefined;
  /** The URL's integer parameters, checked as libpq reads them. */
  readonly integers: Readonly<Partial<Record<IntegerParameter, number>>>;
  /** The URL's passwords, as written and decoded: scrubbed from whatever a driver or server says. */
  readonly secrets: readonly string[];
}

/** The URL, checked: a PostgreSQL one whose sslmode and integer parameters libpq would take, else exit 2. */
export function readStateUrl(text: string): StateUrl {
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
  const inUrl = url.searchParams.get('sslmode');
  const sslmode = inUrl === null ? undefined : checkSslMode(inUrl, 'the URL');
  const integers: Partial<Record<IntegerParameter, number>> = {};
  for (const name of INTEGER_PARAMETERS) {
    const value = url.searchParams.get(name);
    if (value !== null) integers[name] = libpqInteger(value, name, 'the URL');
  }
  return { text, url, redacted: redactStateUrl(text), sslmode, integers, secrets: secretsOf(text) };
}

/** The passwords written in the URL (user part, password=), as written and decoded. */
function secretsOf(text: string): string[] {
  const secrets = new Set<string>();
  for (const raw of [/:\/\/[^:/@?#]*:([^/?#]*)@/.exec(text)?.[1], /[?&]password=([^&#]*)/i.exec(text)?.[1]]) {
    if (raw === undefined || raw === '') continue;
    secrets.add(raw);
    try {
      secrets.add(decodeURIComponent(raw));
    } catch {
      // Kept as written.
    }
  }
  return [...secrets];
}

/** An sslmode libpq knows, else a usage error naming where it came from (the URL, PGSSLMODE). */
export function checkSslMode(value: string, from: string): (typeof SSL_MODES)[number] {
  const mode = SSL_MODES.find((known) => known === value);
  if (mode !== undefined) return mode;
  throw new UsageError(
    `sslmode ${JSON.stringify(printable(value, 40))} in ${from} is not one of ${SSL_MODES.join(', ')}`,
    { hint: 'libpq refuses it too; e.g. sslmode=verify-full&sslrootcert=/path/ca.pem' },
  );
}

/**
 * An integer connection parameter as libpq's parse_int_param reads it (fe-connect.c): decimal digits with an
 * optional sign, blanks around them allowed, anything else (`1e9`, `10s`, `1.5`) refused, and within a C int.
 */
export function libpqInteger(value: string, name: string, from: string): number {
  const match = /^\s*([+-]?\d+)\s*$/.exec(value);
  const number = match === null ? Number.NaN : Number(match[1]);
  if (Number.isSafeInteger(number) && number >= -2_147_483_648 && number <= 2_147_483_647) return number;
  throw new UsageError(
    `${name} ${JSON.stringify(printable(value, 40))} in ${from} is not an integer (libpq reads whole numbers${name === 'connect_timeout' ? ' of seconds' : ''})`,
    { hint: name === 'connect_timeout' ? 'e.g. connect_timeout=10' : `e.g. ${name}=1` },
  );
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
