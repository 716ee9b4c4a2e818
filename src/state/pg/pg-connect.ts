/**
 * Connecting to the shared state store: the URL in libpq's form, read by pg-connection-string in its libpq
 * mode (`sslmode` as libpq means it: disable, prefer and require encrypt without checking the certificate,
 * verify-ca and verify-full check it), `?host=/socket/dir`, PGSSLMODE when the URL has no sslmode; the
 * password from the URL, else PGPASSWORD, else the PGPASSFILE (or ~/.pgpass) entry. The driver, pg, is loaded
 * here and only here: commands that keep no state never load it.
 */
import type { Pool, PoolConfig } from 'pg';
import { redactStateUrl } from '../../config/state-url.js';
import { StateStoreError } from '../../domain/journal-errors.js';
import { printable } from '../../domain/printable.js';
import { pgpassEntry } from './pgpass.js';

const CONNECT_TIMEOUT_S = 10;

export const STATE_HINT =
  'check that the database is up and that ENERGY_STATE_URL (or the state-url setting, --state-url) names it; `energy doctor` checks it. balance, quote, time, options and order get/list work without it';

/** A pool of at most a few connections that never holds the process open when idle. */
export async function connectPool(url: string, env: NodeJS.ProcessEnv): Promise<Pool> {
  const config = await poolConfig(url, env);
  const { default: pg } = await import('pg');
  const pool = new pg.Pool(config);
  // An idle connection the server drops (a restart) must not crash the run: the next query says so.
  pool.on('error', () => undefined);
  return pool;
}

async function poolConfig(text: string, env: NodeJS.ProcessEnv): Promise<PoolConfig> {
  const { parse } = await import('pg-connection-string');
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text, { useLibpqCompat: true });
    // PGSSLMODE where the URL says nothing, as libpq reads it.
    if (parsed.sslmode == null && env.PGSSLMODE)
      parsed = parse(`${text}${text.includes('?') ? '&' : '?'}sslmode=${encodeURIComponent(env.PGSSLMODE)}`, {
        useLibpqCompat: true,
      });
  } catch (error) {
    throw new StateStoreError(
      `cannot use the state store ${printable(redactStateUrl(text), 160)}: ${printable((error as Error).message, 200)}`,
      { hint: STATE_HINT },
    );
  }
  const timeout = Number(
    (parsed as { connect_timeout?: string }).connect_timeout ?? env.PGCONNECT_TIMEOUT ?? CONNECT_TIMEOUT_S,
  );
  const host = parsed.host || env.PGHOST || 'localhost';
  const port = Number(parsed.port || env.PGPORT || 5432);
  const user = parsed.user || env.PGUSER || env.USER || 'postgres';
  const database = parsed.database || env.PGDATABASE || user;
  const password =
    parsed.password ||
    env.PGPASSWORD ||
    pgpassEntry(env, { host, port: String(port), database, user }) ||
    // No password known: the server is asked without one (trust, peer or a certificate).
    undefined;
  return {
    host,
    port,
    user,
    database,
    ...(password !== undefined && { password }),
    ...(parsed.ssl !== undefined && { ssl: parsed.ssl as PoolConfig['ssl'] }),
    application_name: parsed.application_name ?? 'energy',
    max: 4,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
    connectionTimeoutMillis: Number.isFinite(timeout) && timeout > 0 ? timeout * 1000 : CONNECT_TIMEOUT_S * 1000,
  };
}

/** PostgreSQL's SQLSTATE classes that mean "this run may not use the database as configured". */
const REFUSALS: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the server refused this user',
  '3D000': 'the database does not exist',
  '42501': 'this user may not create or use the energy schema',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'the server has too many connections',
};

/** A driver or server failure as the CLI's error (exit 11), the URL's password never in it. */
export function stateStoreFailure(error: unknown, url: string, doing: string): StateStoreError {
  if (error instanceof StateStoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const raw = error instanceof Error ? error.message : String(error);
  const reason = typeof code === 'string' && REFUSALS[code] !== undefined ? `${REFUSALS[code]} (${raw})` : raw;
  return new StateStoreError(
    `the state store ${printable(redactStateUrl(url), 160)} cannot be used${doing === '' ? '' : ` ${doing}`}: ${printable(scrub(reason, url), 240)}`,
    { hint: STATE_HINT, cause: error },
  );
}

/** The URL's password, should a message repeat it, replaced. */
function scrub(text: string, url: string): string {
  const found = /:\/\/[^:/@?#]*:([^/?#]*)@/.exec(url)?.[1];
  if (found === undefined || found === '') return text;
  let password = found;
  try {
    password = decodeURIComponent(found);
  } catch {
    // Kept as written.
  }
  return text.split(password).join('***');
}
