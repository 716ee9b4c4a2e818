/**
 * What a session to the shared state is opened with, from the URL in libpq's form (read by
 * pg-connection-string in its libpq mode) and the PG* variables libpq reads for what the URL leaves out:
 *   - host (default localhost over TCP), port, user, database; `?host=/dir` is a unix socket, where sslmode is
 *     ignored as libpq ignores it (it never asks for SSL over a socket: PQconnectPoll, "Don't request SSL or
 *     GSSAPI over Unix sockets");
 *   - sslmode (PGSSLMODE where the URL has none), checked: disable and allow connect in plain, prefer and
 *     require encrypt without checking the certificate, verify-ca and verify-full check it;
 *   - connect_timeout (PGCONNECT_TIMEOUT; default 10 s), as connectDBComplete bounds it: 1 is 2 s, 0 or less
 *     is no limit; keepalives (default on) and keepalives_idle (default 30 s);
 *   - application_name (PGAPPNAME), else `energy/<version> <host> <pid>`;
 *   - the time limits (pg-limits.ts), from `options` or PGOPTIONS;
 *   - the password from the URL, else PGPASSWORD, else the password file (pgpass.ts), looked up only when
 *     the server asks for one.
 */
import type { PoolConfig } from 'pg';
import { checkSslMode, libpqInteger, type IntegerParameter, type StateUrl } from '../../config/state-url.js';
import { StateStoreError } from '../../domain/journal-errors.js';
import { printable } from '../../domain/printable.js';
import { hostName } from './host-name.js';
import { loadUrlParser } from './pg-driver.js';
import { limitsFrom, type Limits } from './pg-limits.js';
import { pgpassEntry, pgpassFile, type PgpassLookup, type PgpassTarget } from './pgpass.js';

/** Set by the bundler (scripts/bundle.mjs), as for `energy --version`; undefined in tsc output. */
declare const ENERGY_VERSION: string | undefined;

const CONNECT_TIMEOUT_S = 10;
const KEEPALIVES_IDLE_S = 30;
/** The longest timer Node keeps (2^31 - 1 ms): beyond it a timeout fires at once, so it means no limit. */
const LONGEST_TIMER_S = 2_147_483;
/** PostgreSQL keeps the first NAMEDATALEN - 1 bytes of an application name. */
const APPLICATION_NAME_BYTES = 63;

export interface SessionSettings {
  config: PoolConfig;
  target: PgpassTarget;
  limits: Limits;
  otherOptions: string[];
  /** The password when one is given (URL, PGPASSWORD); else the file is read when the server asks. */
  password: () => PgpassLookup;
}

export async function sessionSettings(stateUrl: StateUrl, env: NodeJS.ProcessEnv): Promise<SessionSettings> {
  const { text: url, sslmode: inUrl } = stateUrl;
  const sslmode = inUrl ?? (env.PGSSLMODE || undefined);
  if (inUrl === undefined && sslmode !== undefined) checkSslMode(sslmode, 'PGSSLMODE');
  const { parse } = await loadUrlParser();
  let parsed: ReturnType<typeof parse> & Record<string, string | undefined>;
  try {
    // PGSSLMODE where the URL says nothing, as libpq reads it; `allow` is a plain connection to the parser.
    const withMode =
      inUrl === undefined && sslmode !== undefined ? `${url}${url.includes('?') ? '&' : '?'}sslmode=${sslmode}` : url;
    parsed = parse(withMode.replace(/([?&])sslmode=allow(&|$)/, '$1sslmode=disable$2'), {
      useLibpqCompat: true,
    }) as typeof parsed;
  } catch (error) {
    throw new StateStoreError(
      `cannot use the state store ${printable(stateUrl.redacted, 160)}: ${printable((error as Error).message, 200)}`,
      { hint: 'see `energy help environment` and docs/fleet.md, "The URL"' },
    );
  }
  const host = parsed.host || env.PGHOST || 'localhost';
  const port = String(parsed.port || env.PGPORT || '5432');
  const user = parsed.user || env.PGUSER || env.USER || 'postgres';
  const database = parsed.database || env.PGDATABASE || user;
  const socket = host.startsWith('/');
  const given = parsed.password || env.PGPASSWORD || undefined;
  const target = { host, port: String(libpqInteger(port, 'port', 'the URL')), database, user };
  const { limits, otherOptions } = limitsFrom(parsed.options ?? env.PGOPTIONS);
  const keepalives = integerSetting(stateUrl, undefined, 'keepalives', 1);
  const file = pgpassFile(env, parsed.passfile);
  return {
    target,
    limits,
    otherOptions,
    password: () => (given === undefined ? pgpassEntry(file, target) : { password: given, file }),
    config: {
      host,
      port: Number(target.port),
      user,
      database,
      // libpq asks for SSL only over TCP; `allow` starts in plain.
      ssl: socket ? false : ((parsed.ssl ?? false) as PoolConfig['ssl']),
      application_name: parsed.application_name || env.PGAPPNAME || applicationName(),
      connectionTimeoutMillis:
        connectTimeoutS(integerSetting(stateUrl, env.PGCONNECT_TIMEOUT, 'connect_timeout')) * 1000,
      keepAlive: keepalives !== 0,
      keepAliveInitialDelayMillis:
        Math.max(0, integerSetting(stateUrl, undefined, 'keepalives_idle', KEEPALIVES_IDLE_S)) * 1000,
    },
  };
}

/** connectDBComplete's bounds: more than 0 and less than 2 is 2 s; 0 or less is no limit (0 here too). */
function connectTimeoutS(seconds: number): number {
  if (seconds <= 0 || seconds > LONGEST_TIMER_S) return 0;
  return Math.max(seconds, 2);
}

/** The URL's value (checked as it was read), else the PG* variable's, checked as libpq reads it, else the default. */
function integerSetting(
  stateUrl: StateUrl,
  fromEnv: string | undefined,
  name: Exclude<IntegerParameter, 'port'>,
  fallback = CONNECT_TIMEOUT_S,
): number {
  const fromUrl = stateUrl.integers[name];
  if (fromUrl !== undefined) return fromUrl;
  if (fromEnv !== undefined && fromEnv !== '') return libpqInteger(fromEnv, name, `PG${name.toUpperCase()}`);
  return fallback;
}

/** `energy/<version> <host> <pid>`, the host cut so that the name fits what the server keeps. */
export function applicationName(host = hostName(), pid = process.pid): string {
  const version = typeof ENERGY_VERSION === 'string' ? ENERGY_VERSION : 'dev';
  const fixed = `energy/${version}  ${pid}`;
  const room = APPLICATION_NAME_BYTES - Buffer.byteLength(fixed);
  const ascii = host.replace(/[^\x21-\x7e]/g, '?');
  return `energy/${version} ${ascii.slice(0, Math.max(room, 0))} ${pid}`;
}
