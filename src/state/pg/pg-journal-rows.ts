/**
 * The journal's rows in PostgreSQL (energy.journal) as records: the row ↔ record rules of PgJournal (one
 * account's journal, pg-journal.ts), and what the store does over every account at once, with no API key in
 * hand: the pending records of all (`state status`, `order pending` of a fleet) and `state import`.
 */
import type { Pool } from 'pg';
import type { StateUrl } from '../../config/state-url.js';
import type { UnreadableRecord } from '../../journal/read-records.js';
import { orderBody, parseRecord, type JournalRecord, type Outcome } from '../../journal/record.js';
import { stateStoreFailure } from './pg-connect.js';

export interface Row {
  origin: string;
  key_id: string;
  client_request_id: string;
  body: string;
  journaled_at: Date;
  last_error: string | null;
  outcome: Outcome | null;
}

export const COLUMNS = 'origin, key_id, client_request_id, body, journaled_at, last_error, outcome';

/** A query of the journal; its failure said as the store's (exit 11), the URL's password never in it. */
export async function journalQuery<R extends object>(
  pool: Pool,
  url: StateUrl,
  doing: string,
  sql: string,
  params: unknown[],
): Promise<{ rows: R[] }> {
  try {
    return await pool.query<R>(sql, params);
  } catch (error) {
    throw stateStoreFailure(error, url, `to ${doing}`);
  }
}

/** The row as a record, checked as a file is: a row whose body is not an order is not trusted. */
export function recordOf(row: Row): JournalRecord | undefined {
  return parseRecord(JSON.stringify(asRecord(row)));
}

export function unreadableOf(row: Row, where: string): UnreadableRecord | undefined {
  return recordOf(row) === undefined
    ? { path: rowPath(where, row.client_request_id), reason: 'its order body is garbled (not the JSON of an order)' }
    : undefined;
}

/** Where a record is, said as a file's path is: the store, the table, the id. */
export function rowPath(where: string, clientRequestId: string): string {
  return `${where} (energy.journal, client_request_id ${clientRequestId})`;
}

/** The order's address, kept beside the body so that a decision reads its addresses' rows only; null if garbled. */
export function addressOf(body: string): string | null {
  return orderBody(body)?.address ?? null;
}

/** Pending records of every API and key, and the rows that are not records. */
export async function everyPending(
  pool: Pool,
  url: StateUrl,
): Promise<{ records: JournalRecord[]; unreadable: UnreadableRecord[] }> {
  const sql = `SELECT ${COLUMNS} FROM energy.journal WHERE outcome IS NULL ORDER BY journaled_at`;
  const { rows } = await journalQuery<Row>(pool, url, 'read the journal', sql, []);
  return {
    records: rows.flatMap((row) => recordOf(row) ?? []),
    unreadable: rows.flatMap((row) => unreadableOf(row, url.redacted) ?? []),
  };
}

/**
 * A record from a local journal (`energy state import`), under its own API and key: added when the database
 * has none under its id, its outcome written where the database's row is still pending; a row with an outcome
 * is left as it is.
 */
export async function importRecord(
  pool: Pool,
  url: StateUrl,
  host: string,
  record: JournalRecord,
): Promise<'added' | 'settled' | 'present'> {
  const { rows } = await journalQuery<{ added: boolean }>(
    pool,
    url,
    'import the journal',
    `INSERT INTO energy.journal AS j (${COLUMNS}, host, address) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (key_id, client_request_id) DO UPDATE
       SET outcome = EXCLUDED.outcome, updated_at = now()
       WHERE j.outcome IS NULL AND EXCLUDED.outcome IS NOT NULL
     RETURNING (xmax = 0) AS added`,
    [
      record.origin,
      record.key_id,
      record.client_request_id,
      record.body,
      new Date(record.journaled_at),
      record.last_error,
      record.outcome === null ? null : JSON.stringify(record.outcome),
      host,
      addressOf(record.body),
    ],
  );
  return rows[0] === undefined ? 'present' : rows[0].added ? 'added' : 'settled';
}

function asRecord(row: Row): JournalRecord {
  return {
    version: 1,
    origin: row.origin,
    key_id: row.key_id,
    client_request_id: row.client_request_id,
    body: row.body,
    journaled_at: row.journaled_at.toISOString(),
    last_error: row.last_error,
    outcome: row.outcome,
  };
}
