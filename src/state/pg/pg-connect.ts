/**
 * Sessions to the shared state store (settings: pg-settings.ts). The driver, pg, is loaded for them alone
 * (pg-driver.ts): commands that keep no state never load it. Every session:
 *   - has an 'error' listener from the moment it is made (a client the pool hands out included), so that a
 *     session the server ends (a restart, a fail-over, pg_terminate_backend, an idle timeout) fails the query
 *     that needed it, as exit 11 or a failed cycle, never a crash;
 *   - carries the time limits (pg-limits.ts), as startup options, or with SET LOCAL in each transaction where
 *     the server refuses or drops startup options (PgBouncer): decided once, on the run's first session;
 *   - is one of at most 2 a run, closed after 10 s idle, never holding the process open.
 * Queries are never named (no prepared statement outlives its transaction), as PgBouncer's transaction
 * mode needs.
 */
import type { Pool, PoolConfig, QueryResult } from 'pg';
import type { StateUrl } from '../../config/state-url.js';
import { StateStoreError } from '../../domain/journal-errors.js';
import { printable } from '../../domain/printable.js';
import { setLocal, startupOptions, type Limits } from './pg-limits.js';
import { sessionSettings, type SessionSettings } from './pg-settings.js';
import { sessionFailure } from './pg-failure.js';
import { loadDriver } from './pg-driver.js';
import { startupHint } from './pg-startup-hint.js';
import { eachStatementInATransaction } from './pg-local-transaction.js';
import { noSchema, READ_VERSION } from './pg-schema.js';

export const STATE_HINT =
  'check that the database is up and that ENERGY_STATE_URL (or the state-url setting, --state-url) names it; `energy doctor` checks it. balance, quote, time, options and order get/list work without it';

/** At most this many sessions a run: one for a transaction, one for the journal's writes beside it. */
export const MAX_SESSIONS = 2;

/** What a run's failures are said with: its limits (named when one is hit) and the passwords to scrub. */
const known: { limits?: Limits; secrets: Set<string> } = { secrets: new Set() };

/** The limits given at start-up that the server applied: all three where it took the startup options. */
const APPLIED = `SELECT count(*) AS applied FROM pg_settings WHERE source = 'client'
  AND name IN ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout')`;

/**
 * A pool whose sessions carry the limits, its first session made (the mode decided), or exit 11; with the
 * schema's version where the first session read it (beside the check of its limits, in the same round trip).
 */
export async function connectPool(
  url: StateUrl,
  env: NodeJS.ProcessEnv,
): Promise<{ pool: Pool; schemaVersion: number | undefined }> {
  const settings = await sessionSettings(url, env);
  known.limits = settings.limits;
  const hint = startupHint(env, settings.target);
  // Options of the user's own are still sent: refused, they are said as libpq would (its own options, its own business).
  const localPool = () => newPool(settings, url, startupOptions(undefined, settings.otherOptions), true);
  // Met less than a day ago: the limits go with each transaction from the first session (pg-startup-hint.ts).
  if (hint.optionsLost) return { pool: await localPool(), schemaVersion: undefined };
  const options = startupOptions(settings.limits, settings.otherOptions);
  const withOptions = await newPool(settings, url, options, false);
  let first;
  try {
    first = await firstSession(withOptions);
  } catch (error) {
    await withOptions.end().catch(() => undefined);
    throw stateStoreFailure(error, url, '(nothing was sent)');
  }
  const { mode, schemaVersion } = first;
  if (mode === 'startup') return { pool: withOptions, schemaVersion };
  await withOptions.end().catch(() => undefined);
  // Startup options refused or dropped: the limits go with each transaction instead, and this host remembers it.
  hint.note();
  return { pool: await localPool(), schemaVersion };
}

/**
 * 'startup' where the server applied the limits given at start-up, else 'dropped' or 'refused'; and the schema's
 * version, read in the same simple query (0 where there is no schema yet; undefined where no session was made).
 */
async function firstSession(
  pool: Pool,
): Promise<{ mode: 'startup' | 'dropped' | 'refused'; schemaVersion: number | undefined }> {
  let client;
  try {
    client = await pool.connect();
  } catch (error) {
    // PgBouncer: "unsupported startup parameter: options" (08P01), before authentication.
    if (/unsupported startup parameter/i.test(String((error as Error).message))) {
      return { mode: 'refused', schemaVersion: undefined };
    }
    throw error;
  }
  try {
    let applied: unknown;
    let schemaVersion = 0;
    try {
      // Two statements, one Query message: pg returns a result for each.
      const [settings, version] = (await client.query(`${APPLIED}; ${READ_VERSION}`)) as unknown as [
        QueryResult<{ applied: string }>,
        QueryResult<{ version: number | null }>,
      ];
      applied = settings.rows[0]?.applied;
      schemaVersion = version.rows[0]?.version ?? 0;
    } catch (error) {
      // No schema yet (a first run, which creates it): the check alone.
      if (!noSchema(error)) throw error;
      applied = (await client.query<{ applied: string }>(APPLIED)).rows[0]?.applied;
    }
    return { mode: applied === '3' ? 'startup' : 'dropped', schemaVersion };
  } finally {
    client.release();
  }
}

async function newPool(settings: SessionSettings, url: StateUrl, options: string, local: boolean): Promise<Pool> {
  const { default: pg } = await loadDriver();
  const begin = setLocal(settings.limits);
  /** The client the pool makes: listened to from the start; in local mode, each BEGIN sets the limits. */
  const password = async (): Promise<string> => {
    const found = settings.password();
    if (found.password === undefined) throw missingPassword(url, settings, found);
    known.secrets.add(found.password);
    return found.password;
  };
  class SessionClient extends pg.Client {
    constructor(config: PoolConfig) {
      super(config);
      // Asked only when the server wants one. None to give: the half-open session is closed too, else the
      // server would hold it (and this process) for its authentication_timeout.
      (this as { password?: unknown }).password = () =>
        password().catch((error: unknown) => {
          setImmediate(() => void this.end().catch(() => undefined));
          throw error;
        });
      // Said by the query that needed the session; a session lost while idle is dropped by the pool.
      this.on('error', () => undefined);
      // pg would otherwise read PGOPTIONS itself: the options sent are exactly these.
      (this as unknown as { connectionParameters: { options?: string } }).connectionParameters.options =
        options === '' ? undefined : options;
      if (!local) return;
      const query = this.query.bind(this) as (...args: unknown[]) => unknown;
      this.query = ((...args: unknown[]) =>
        typeof args[0] === 'string' && args.length === 1 && /^\s*(BEGIN|START\s+TRANSACTION)\b/i.test(args[0])
          ? query(`${args[0]}; ${begin}`)
          : query(...args)) as typeof this.query;
    }
  }
  const pool = new pg.Pool({
    ...settings.config,
    Client: SessionClient as unknown as NonNullable<PoolConfig['Client']>,
    max: MAX_SESSIONS,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
  });
  pool.on('error', () => undefined);
  if (local) eachStatementInATransaction(pool, begin);
  return pool;
}

function missingPassword(
  url: StateUrl,
  settings: SessionSettings,
  found: { file: string | undefined; ignored?: string; unreadable?: string },
) {
  const { host, port, database, user } = settings.target;
  const file =
    found.file === undefined
      ? 'no password file (PGPASSFILE, ~/.pgpass)'
      : found.unreadable !== undefined
        ? `the password file ${found.file} ${found.unreadable}`
        : found.ignored === undefined
          ? `no line for ${host}:${port}:${database}:${user} in the password file ${found.file}`
          : `the password file ${found.file} ignored: ${found.ignored}`;
  return new StateStoreError(
    `the state store ${printable(url.redacted, 160)} asks for a password for user ${printable(user, 64)} and none was given: none in the URL, PGPASSWORD not set, ${printable(file, 300)} (nothing was sent)`,
    {
      hint: `set PGPASSWORD, or add the line ${host}:${port}:${database}:${user}:<password> to a password file readable by you alone (chmod 600) named by PGPASSFILE`,
    },
  );
}

/** A driver or server failure as the CLI's error (exit 11), the passwords never in it. */
export function stateStoreFailure(error: unknown, url: StateUrl, doing: string): StateStoreError {
  if (error instanceof StateStoreError) return error;
  const { reason, hint } = sessionFailure(error, known.limits);
  return new StateStoreError(
    `the state store ${printable(url.redacted, 160)} cannot be used${doing === '' ? '' : ` ${doing}`}: ${printable(scrub(reason, url), 240)}`,
    { hint: hint ?? STATE_HINT, cause: error },
  );
}

/** The URL's passwords and any password a session used, should a message repeat them, replaced. */
export function scrub(text: string, url: StateUrl): string {
  const secrets = new Set([...known.secrets, ...url.secrets]);
  let scrubbed = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    if (secret !== '') scrubbed = scrubbed.split(secret).join('***');
  return scrubbed;
}
