/**
 * The order journal in PostgreSQL: one row per (API key, client_request_id), shared by every host naming the
 * database. The account is the key's one-way id, never the base URL's spelling (`origin` is kept as what the
 * writer called it). The rules are the folder's (journal.ts): a record is written before its request leaves;
 * an id journaled pending, or settled with an order, is returned to a second writer, whose bytes it must send;
 * a refused or unsent record is replaced; a record is settled once (the first answer stays). Each row carries
 * its order's address, so that a decision reads its own addresses' rows only (index journal_address). What
 * needs no account (every account's pending records, an import) is pg-journal-rows.ts, with the row rules.
 */
import type { Pool } from 'pg';
import type { StateUrl } from '../../config/state-url.js';
import { JournalWriteError, UnreadableRecordError } from '../../domain/journal-errors.js';
import type { JournalScope, OrderJournal } from '../../journal/order-journal.js';
import type { UnreadableRecord } from '../../journal/read-records.js';
import type { JournalRecord, OutcomeInput, Outcome } from '../../journal/record.js';
import { stateStoreFailure } from './pg-connect.js';
import { addressOf, COLUMNS, journalQuery, recordOf, rowPath, unreadableOf, type Row } from './pg-journal-rows.js';
import { serverNowMs } from '../../domain/server-now.js';

const KEY = 'key_id = $1 AND client_request_id = $2';
/** Settled records are kept this long, as in the folder. */
const RETENTION = "interval '30 days'";

export class PgJournal implements OrderJournal {
  #pruned = false;
  readonly where: string;

  constructor(
    private readonly pool: Pool,
    readonly scope: JournalScope,
    private readonly url: StateUrl,
    private readonly host: string,
    private readonly options: {
      /** Asked before a record is written: may refuse the order (a host not moved in, pg-store.ts). */
      beforeBegin?: () => Promise<void>;
      nowMs?: () => number;
    } = {},
  ) {
    this.where = url.redacted;
  }

  private nowMs(): number {
    // The process's server clock (issue 44): records of hosts whose clocks differ sort and end alike.
    return (this.options.nowMs ?? serverNowMs)();
  }

  async find(clientRequestId: string): Promise<JournalRecord | undefined> {
    const row = await this.#row(clientRequestId);
    return row === undefined ? undefined : this.#record(row);
  }

  async findAll(clientRequestIds: readonly string[]): Promise<Map<string, JournalRecord>> {
    const found = new Map<string, JournalRecord>();
    if (clientRequestIds.length === 0) return found;
    const sql = `SELECT ${COLUMNS} FROM energy.journal WHERE key_id = $1 AND client_request_id = ANY($2::text[])`;
    for (const row of (await this.#query<Row>('read the journal', sql, [this.scope.keyId, clientRequestIds])).rows) {
      const record = this.#record(row);
      if (record !== undefined) found.set(record.client_request_id, record);
    }
    return found;
  }

  async unreadableFor(clientRequestId: string): Promise<UnreadableRecord | undefined> {
    const row = await this.#row(clientRequestId);
    return row !== undefined && row.outcome === null ? this.#unreadable(row) : undefined;
  }

  async begin(clientRequestId: string, body: string): Promise<{ record: JournalRecord; fresh: boolean }> {
    await this.options.beforeBegin?.();
    const journaledAt = new Date(this.nowMs());
    const { rows } = await this.#query<Row>(
      'journal the order (nothing was sent)',
      `INSERT INTO energy.journal (${COLUMNS}, host, address) VALUES ($1, $2, $3, $4, $5, NULL, NULL, $6, $7)
       ON CONFLICT (key_id, client_request_id) DO UPDATE
         SET origin = EXCLUDED.origin, body = EXCLUDED.body, journaled_at = EXCLUDED.journaled_at,
             last_error = NULL, outcome = NULL, host = EXCLUDED.host, address = EXCLUDED.address, updated_at = now()
         WHERE energy.journal.outcome IS NOT NULL AND energy.journal.outcome->>'kind' NOT IN ('created', 'existing')
       RETURNING ${COLUMNS}`,
      [this.scope.origin, this.scope.keyId, clientRequestId, body, journaledAt, this.host, addressOf(body)],
    );
    if (rows[0] !== undefined) return { record: this.#record(rows[0])!, fresh: true };
    const other = await this.#row(clientRequestId);
    const record = other === undefined ? undefined : this.#record(other);
    if (record === undefined) {
      const reason = (other && this.#unreadable(other)?.reason) ?? 'it changed while being read';
      throw new UnreadableRecordError(clientRequestId, this.#path(clientRequestId), reason);
    }
    return { record, fresh: false };
  }

  async markUncertain(record: JournalRecord, reason: string): Promise<JournalRecord> {
    const updated = { ...record, last_error: reason };
    try {
      await this.pool.query(
        `UPDATE energy.journal SET last_error = $3, updated_at = now() WHERE ${KEY} AND outcome IS NULL`,
        [...this.#key(record.client_request_id), reason],
      );
    } catch {
      // Only a note: the record is pending either way, and the failure being reported matters more.
    }
    return updated;
  }

  async settle(record: JournalRecord, outcome: OutcomeInput): Promise<JournalRecord> {
    const full = { ...outcome, at: new Date(this.nowMs()).toISOString() } as Outcome;
    try {
      // The first answer stays: a host settling a record another host settled a moment ago changes nothing.
      const { rows } = await this.pool.query<Row>(
        `INSERT INTO energy.journal (${COLUMNS}, host, address) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (key_id, client_request_id) DO UPDATE
           SET outcome = EXCLUDED.outcome, updated_at = now() WHERE energy.journal.outcome IS NULL
         RETURNING ${COLUMNS}`,
        [
          this.scope.origin,
          this.scope.keyId,
          record.client_request_id,
          record.body,
          new Date(record.journaled_at),
          record.last_error,
          JSON.stringify(full),
          this.host,
          addressOf(record.body),
        ],
      );
      const row = rows[0] ?? (await this.#row(record.client_request_id));
      return (row && this.#record(row)) ?? { ...record, outcome: full };
    } catch (error) {
      // The record stays pending: `order recover` settles it later, by resending its bytes (no second order).
      throw new JournalWriteError(
        `cannot record the outcome in the state store: ${stateStoreFailure(error, this.url, 'now').message}`,
      );
    }
  }

  /** Pending records of this account; of `addresses` only when given (a decision's). */
  async pending(addresses?: readonly string[]): Promise<JournalRecord[]> {
    return this.#records('outcome IS NULL', [], addresses);
  }

  /** Records with an order journaled since `sinceMs`; of `addresses` only when given (a decision's). */
  async ordered(sinceMs: number, addresses?: readonly string[]): Promise<JournalRecord[]> {
    return this.#records(
      `outcome->>'kind' IN ('created', 'existing') AND journaled_at >= $2`,
      [new Date(sinceMs)],
      addresses,
    );
  }

  async allPending(): Promise<JournalRecord[]> {
    const sql = `SELECT ${COLUMNS} FROM energy.journal WHERE outcome IS NULL ORDER BY journaled_at`;
    return (await this.#query<Row>('read the journal', sql, [])).rows.flatMap((row) => this.#record(row) ?? []);
  }

  async unreadablePending(): Promise<UnreadableRecord[]> {
    const rows = await this.#pendingRows('key_id = $1', [this.scope.keyId]);
    return rows.flatMap((row) => this.#unreadable(row) ?? []);
  }

  /** One account per key, whatever the URL's spelling when the record was written. */
  covers(record: JournalRecord): boolean {
    return record.key_id === this.scope.keyId;
  }

  async pendingCount(exceptId?: string): Promise<number> {
    const { rows } = await this.#query<{ count: string }>(
      'count pending records',
      `SELECT count(*) AS count FROM energy.journal
         WHERE key_id = $1 AND outcome IS NULL AND client_request_id IS DISTINCT FROM $2`,
      [this.scope.keyId, exceptId ?? null],
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** Settled records past the retention period, once per run: housekeeping, never a failed order. */
  async prune(): Promise<number> {
    if (this.#pruned) return 0;
    this.#pruned = true;
    try {
      const { rowCount } = await this.pool.query(
        `DELETE FROM energy.journal WHERE outcome IS NOT NULL AND updated_at < now() - ${RETENTION}`,
      );
      return rowCount ?? 0;
    } catch {
      return 0;
    }
  }

  /** This account's records where `where` holds ($1 is the key id, `params` from $2 on), oldest first. */
  async #records(where: string, params: unknown[], addresses: readonly string[] | undefined): Promise<JournalRecord[]> {
    const values = [this.scope.keyId, ...params, ...(addresses === undefined ? [] : [addresses])];
    const only = addresses === undefined ? '' : ` AND address = ANY($${values.length}::text[])`;
    const sql = `SELECT ${COLUMNS} FROM energy.journal WHERE key_id = $1${only} AND ${where} ORDER BY journaled_at`;
    return (await this.#query<Row>('read the journal', sql, values)).rows.flatMap((row) => this.#record(row) ?? []);
  }

  async #pendingRows(where: string, params: unknown[]): Promise<Row[]> {
    const sql = `SELECT ${COLUMNS} FROM energy.journal WHERE ${where} AND outcome IS NULL ORDER BY journaled_at`;
    return (await this.#query<Row>('read the journal', sql, params)).rows;
  }

  async #row(clientRequestId: string): Promise<Row | undefined> {
    const sql = `SELECT ${COLUMNS} FROM energy.journal WHERE ${KEY}`;
    return (await this.#query<Row>('read the journal', sql, this.#key(clientRequestId))).rows[0];
  }

  #query<R extends object>(doing: string, sql: string, params: unknown[]): Promise<{ rows: R[] }> {
    return journalQuery<R>(this.pool, this.url, doing, sql, params);
  }

  #key(clientRequestId: string): [string, string] {
    return [this.scope.keyId, clientRequestId];
  }

  #record(row: Row): JournalRecord | undefined {
    return recordOf(row);
  }

  #unreadable(row: Row): UnreadableRecord | undefined {
    return unreadableOf(row, this.where);
  }

  #path(clientRequestId: string): string {
    return rowPath(this.where, clientRequestId);
  }
}
