/**
 * The state store in PostgreSQL (ENERGY_STATE_URL): the journal of every host naming the database, and
 * `ensure`'s claims on addresses with leases (pg-claims.ts), one row per account (API key) and address: no
 * transaction or lock is held across a network call. Opening it connects and brings the schema up to date, so
 * that a database that cannot be reached is said before anything else happens.
 */
import type { Pool } from 'pg';
import type { StateUrl } from '../../config/state-url.js';
import type { KnownAccounts } from '../known-accounts.js';
import { spellingNote } from '../folder/key-names.js';
import { printable } from '../../domain/printable.js';
import type { JournalScope, OrderJournal } from '../../journal/order-journal.js';
import type { JournalRecord } from '../../journal/record.js';
import type { FinalOrders } from '../../journal/final-orders.js';
import type { FolderLedger } from '../folder/folder-ledgers.js';
import type { SpendLedger } from '../../journal/spend-ledger.js';
import type { ClaimOptions, Claims, StateStore, StoreStatus } from '../state-store.js';
import { claimAddresses } from './pg-claims.js';
import { ENDED } from './pg-claims-sql.js';
import { ClaimsUpkeep } from './pg-claims-upkeep.js';
import { connectPool, stateStoreFailure } from './pg-connect.js';
import { hostName } from './host-name.js';
import { PgJournal } from './pg-journal.js';
import { everyPending, importRecord } from './pg-journal-rows.js';
import { pgFinalOrders } from './pg-final-orders.js';
import { pgKnownAccounts } from './pg-known-accounts.js';
import { pgSharedList } from './pg-shared-list.js';
import type { SharedOrderList } from '../shared-list.js';
import { storeStatus } from './pg-status.js';
import { migrate, schemaVersion, tryWrite } from './pg-schema.js';

export class PgStore implements StateStore {
  readonly kind = 'postgresql';
  readonly where: string;
  readonly host = hostName();
  readonly #spellings = new Set<string>();
  /** The let-goes this process retries, and its pruning of claims (pg-claims-upkeep.ts). */
  readonly #upkeep = new ClaimsUpkeep();
  /** Whether this process claimed (so has a row in energy.hosts, marked ended as it closes). */
  #claiming = false;
  /** Asked before anything is ordered: refuses while this host has not moved in (state/moving-in.ts). */
  #beforeOrdering: () => Promise<void> = async () => undefined;

  private constructor(
    private readonly pool: Pool,
    private readonly url: StateUrl,
    readonly schemaVersion: number,
  ) {
    this.where = url.redacted;
  }

  /** Connects, and creates or migrates the schema: a database that cannot be used fails here (exit 11). */
  static async open(url: StateUrl, env: NodeJS.ProcessEnv): Promise<PgStore> {
    const { pool, schemaVersion: read } = await connectPool(url, env);
    try {
      // Not read by the first session (a pooler's, or one met before): read by the pool, whose statements carry
      // the time limits there; the client below runs a statement outside a transaction without them.
      const found = read ?? (await schemaVersion(pool));
      const client = await pool.connect();
      try {
        return new PgStore(pool, url, await migrate(client, hostName(), found));
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw stateStoreFailure(error, url, '(nothing was sent)');
    }
  }

  async journal(scope: JournalScope, note?: (line: string) => void): Promise<OrderJournal> {
    if (note !== undefined && !this.#spellings.has(scope.keyId)) {
      this.#spellings.add(scope.keyId);
      await this.#noteSpelling(scope, note);
    }
    return new PgJournal(this.pool, scope, this.url, this.host, {
      beforeBegin: () => this.#beforeOrdering(),
    });
  }

  /** `check` runs before each of `ensure`'s decisions and each order request journaled, and may refuse them. */
  guardOrdering(check: () => Promise<void>): void {
    this.#beforeOrdering = check;
  }

  async allPending(): ReturnType<StateStore['allPending']> {
    return everyPending(this.pool, this.url);
  }

  async claims({ everyMs }: ClaimOptions): Promise<Claims> {
    const options = { pool: this.pool, url: this.url, host: this.host, everyMs, upkeep: this.#upkeep };
    this.#claiming = true;
    return async (scope, addresses, slice) => {
      const claim = await claimAddresses(options, await scope(), addresses, slice);
      return {
        ...claim,
        decide: async (wanted, work) => {
          await this.#beforeOrdering();
          return claim.decide(wanted, work);
        },
      };
    };
  }

  knownAccounts(): KnownAccounts {
    return pgKnownAccounts(this.pool);
  }

  finalOrders(keyId: string): FinalOrders {
    return pgFinalOrders(this.pool, keyId);
  }

  sharedList(keyId: string): SharedOrderList {
    return pgSharedList(this.pool, keyId, `${this.host} ${process.pid}`);
  }

  async spendLedger(name: string): Promise<SpendLedger> {
    const { PgSpendLedger } = await spendLedgers();
    return new PgSpendLedger(this.pool, name, this.url, this.host);
  }

  /** A folder's ledgers, event by event (each once, by its id): see PgSpendLedger.import. */
  async importSpendLedgers(ledgers: readonly FolderLedger[]): Promise<number> {
    const { PgSpendLedger } = await spendLedgers();
    let added = 0;
    for (const { ledger, events, longestWindowMs } of ledgers)
      added += await new PgSpendLedger(this.pool, ledger, this.url, this.host).import(events, longestWindowMs);
    return added;
  }

  /** Every record of a local journal folder, in order, each under its own API and key: see importRecord. */
  async importRecords(records: readonly JournalRecord[]): Promise<Record<'added' | 'settled' | 'present', number>> {
    const counts = { added: 0, settled: 0, present: 0 };
    for (const record of records) counts[await importRecord(this.pool, this.url, this.host, record)] += 1;
    return counts;
  }

  async status(serverNowMs?: number): Promise<StoreStatus> {
    try {
      const { status, databaseNowMs } = await storeStatus(this.pool, this.where);
      const { rows } = await this.pool.query<{ ledger: string }>(
        'SELECT ledger FROM energy.spend_ledger ORDER BY ledger',
      );
      // The server's clock, as every ledger entry is stamped; else the database's, one for every host.
      const nowMs = serverNowMs ?? databaseNowMs;
      if (serverNowMs !== undefined) status.clock = { source: 'server', now: new Date(serverNowMs).toISOString() };
      for (const { ledger } of rows) status.ledgers.push(await (await this.spendLedger(ledger)).totals(nowMs));
      return status;
    } catch (error) {
      throw stateStoreFailure(error, this.url, 'to read its status');
    }
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
    if (this.#claiming) {
      // A let-go still waiting, tried once more; then this process's row says it ended (not a host gone silent).
      await this.#upkeep.retry();
      await this.pool.query(ENDED, [this.host, process.pid]).catch(() => undefined);
    }
    await this.pool.end().catch(() => undefined);
  }

  /**
   * Notes the URL's spelling this key is used with; the first time one key is met under a second spelling, says
   * so (one account either way). Only a note: a database that cannot take it changes nothing.
   */
  async #noteSpelling(scope: JournalScope, note: (line: string) => void): Promise<void> {
    try {
      const { rows } = await this.pool.query<{ origin: string }>(
        `WITH added AS (
           INSERT INTO energy.origins (key_id, origin) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING origin
         )
         SELECT origin FROM energy.origins WHERE key_id = $1 AND origin <> $2 AND EXISTS (SELECT 1 FROM added)`,
        [scope.keyId, scope.origin],
      );
      if (rows.length > 0)
        note(
          spellingNote(
            scope,
            rows.map((row) => printable(row.origin, 120)),
          ),
        );
    } catch {
      // Only a note.
    }
  }
}

/**
 * The ledger's module, loaded when a ceiling is first asked for: it brings decimal.js (money), which a command
 * that keeps state without spending (`order pending`, `state status` without ledgers) never needs.
 */
function spendLedgers(): Promise<typeof import('./pg-spend-ledger.js')> {
  return import('./pg-spend-ledger.js');
}
