/**
 * The state store in PostgreSQL (ENERGY_STATE_URL): the journal of every host naming the database, and
 * `ensure`'s decisions serialised across those hosts by transaction-scoped advisory locks, one per account
 * (API and key) and address, held from reading what is in flight to the last order journaled. Opening it
 * connects and brings the schema up to date, so that a database that cannot be reached is said before
 * anything else happens.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Pool } from 'pg';
import { redactStateUrl } from '../../config/state-url.js';
import { ConflictError } from '../../domain/cli-errors.js';
import { printable } from '../../domain/printable.js';
import type { JournalScope, OrderJournal } from '../../journal/order-journal.js';
import type { JournalRecord } from '../../journal/record.js';
import type { FolderLedger } from '../../journal/folder-ledgers.js';
import type { SpendLedger } from '../../journal/spend-ledger.js';
import type { DecisionKeys, Exclusive, StateStore } from '../state-store.js';
import { connectPool, stateStoreFailure } from './pg-connect.js';
import { PgJournal } from './pg-journal.js';
import { PgSpendLedger } from './pg-spend-ledger.js';
import { migrate, tryWrite } from './pg-schema.js';

/** How long a host waits for another host's decision for the same address (the folder's lock waits as long). */
const LOCK_WAIT_S = 60;

export class PgStore implements StateStore {
  readonly kind = 'postgresql';
  readonly where: string;
  readonly host = hostname();

  private constructor(
    private readonly pool: Pool,
    private readonly url: string,
    readonly schemaVersion: number,
  ) {
    this.where = redactStateUrl(url);
  }

  /** Connects, and creates or migrates the schema: a database that cannot be used fails here (exit 11). */
  static async open(url: string, env: NodeJS.ProcessEnv): Promise<PgStore> {
    const pool = await connectPool(url, env);
    try {
      const client = await pool.connect();
      try {
        return new PgStore(pool, url, await migrate(client, hostname()));
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw stateStoreFailure(error, url, '(nothing was sent)');
    }
  }

  async journal(scope: JournalScope): Promise<OrderJournal> {
    return new PgJournal(this.pool, scope, this.where, this.url, this.host);
  }

  async allPending(): ReturnType<StateStore['allPending']> {
    return new PgJournal(this.pool, { origin: '', keyId: '' }, this.where, this.url, this.host).everyPending();
  }

  async decisions(note: (line: string) => void): Promise<Exclusive> {
    return (work, keys) => this.#decide(work, keys, note);
  }

  async spendLedger(name: string): Promise<SpendLedger> {
    return new PgSpendLedger(this.pool, name, this.url, this.host);
  }

  /** A folder's ledgers, event by event (each once, by its id): see PgSpendLedger.import. */
  async importSpendLedgers(ledgers: readonly FolderLedger[]): Promise<number> {
    let added = 0;
    for (const { ledger, events, longestWindowMs } of ledgers)
      added += await new PgSpendLedger(this.pool, ledger, this.url, this.host).import(events, longestWindowMs);
    return added;
  }

  /** Every record of a local journal folder, in order: see PgJournal.import. */
  async importRecords(records: readonly JournalRecord[]): Promise<Record<'added' | 'settled' | 'present', number>> {
    const journal = new PgJournal(this.pool, { origin: '', keyId: '' }, this.where, this.url, this.host);
    const counts = { added: 0, settled: 0, present: 0 };
    for (const record of records) counts[await journal.import(record)] += 1;
    return counts;
  }

  /** The schema's version and one round trip, timed, and a write rolled back: for `energy doctor`. */
  async health(): ReturnType<StateStore['health']> {
    const started = performance.now();
    let latencyMs = 0;
    try {
      await this.pool.query('SELECT 1');
      latencyMs = performance.now() - started;
      const client = await this.pool.connect();
      try {
        await tryWrite(client);
      } finally {
        client.release();
      }
    } catch (error) {
      throw stateStoreFailure(error, this.url, latencyMs === 0 ? '' : 'to write (tried in a transaction rolled back)');
    }
    return { schemaVersion: this.schemaVersion, latencyMs };
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }

  async #decide<T>(work: () => Promise<T>, keys: DecisionKeys, note: (line: string) => void): Promise<T> {
    const names = [...new Set(keys.addresses ?? ['*'])].sort();
    let client;
    try {
      client = await this.pool.connect();
      await client.query('BEGIN');
      await client.query(`SET LOCAL lock_timeout = '${LOCK_WAIT_S}s'`);
      // In one order on every host, so that two runs for overlapping addresses never wait on each other.
      for (const name of names) {
        const key = lockKey(keys.scope, name);
        const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1::bigint) AS got', [
          key,
        ]);
        if (rows[0]?.got === true) continue;
        note(
          `energy: another host sharing the state store is deciding for ${printable(name, 64)}: waiting up to ${LOCK_WAIT_S} s for it`,
        );
        await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [key]);
      }
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      client?.release();
      if ((error as { code?: string }).code === '55P03')
        throw new ConflictError(
          `another host sharing the state store has been deciding for these addresses for over ${LOCK_WAIT_S} s: nothing bought`,
          { hint: 'let it finish and run again; a host that dies releases its lock with its connection' },
        );
      throw stateStoreFailure(error, this.url, 'to take the lock for this decision (nothing was bought)');
    }
    try {
      return await work();
    } finally {
      // The journal's writes went through other connections, committed as they were made: ending this
      // transaction only releases the locks (a connection lost meanwhile released them already).
      await client.query('COMMIT').catch(() => undefined);
      client.release();
    }
  }
}

/** A signed 64-bit key for (API, key, address): one lock per account and address on every host. */
function lockKey(scope: JournalScope, address: string): string {
  const digest = createHash('sha256').update(`energy decide\n${scope.origin}\n${scope.keyId}\n${address}`).digest();
  return digest.readBigInt64BE(0).toString();
}
