/**
 * What a failure of the shared state store means, in words a user acts on: a session the server ended, a time
 * limit reached (named with its value), a refusal (password, database, rights), or the driver's own words.
 */
import type { Limits } from './pg-limits.js';

/** PostgreSQL's SQLSTATE codes that mean "this run may not use the database as configured". */
const REFUSALS: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the server refused this user',
  '3D000': 'the database does not exist',
  '42501': 'this user may not create or use the energy schema',
  '25006': 'the session is read-only (a standby, or default_transaction_read_only)',
  '57P03': 'the server is starting up or shutting down',
  '53300': 'the server has too many connections',
};

/** Codes and driver messages that mean the session itself is gone. */
const ENDED_BY_SERVER: Record<string, string> = {
  '57P01': 'the session was ended by the server (pg_terminate_backend, or a shutdown)',
  '57P02': 'the session was ended by the server (another server process crashed)',
  '25P03': 'the session was ended by the server: a transaction stayed idle past idle_in_transaction_session_timeout',
};
const LOST = /Connection terminated|not queryable|ECONNRESET|EPIPE|socket hang up/i;

const LIMIT_HINT =
  'something held a lock or ran long on the database; the limits are set with -c name=value in the URL\'s options= or in PGOPTIONS (docs/fleet.md, "Sessions")';
const LOST_HINT =
  'nothing more was sent after the session was lost; run again once the database is back (`energy order pending` lists what awaits an answer)';

export function sessionFailure(error: unknown, limits: Limits | undefined): { reason: string; hint?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  const raw = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string') {
    if (code === '57014' && /statement timeout/i.test(raw))
      return {
        reason: `a statement ran past statement_timeout (${limits?.statement_timeout ?? '?'})`,
        hint: LIMIT_HINT,
      };
    if (code === '55P03' && /lock timeout/i.test(raw))
      return {
        reason: `waited past lock_timeout (${limits?.lock_timeout ?? '?'}) for a lock another session holds`,
        hint: LIMIT_HINT,
      };
    if (code === '25P03' && limits !== undefined)
      return {
        reason: `${ENDED_BY_SERVER[code]!} (${limits.idle_in_transaction_session_timeout})`,
        hint: LOST_HINT,
      };
    if (ENDED_BY_SERVER[code] !== undefined) return { reason: `${ENDED_BY_SERVER[code]} (${raw})`, hint: LOST_HINT };
    if (REFUSALS[code] !== undefined) return { reason: `${REFUSALS[code]} (${raw})` };
  }
  if (LOST.test(raw) || (typeof code === 'string' && LOST.test(code)))
    return { reason: `the connection to the database was lost (${raw})`, hint: LOST_HINT };
  return { reason: raw };
}
