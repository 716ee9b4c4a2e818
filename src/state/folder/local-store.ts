/** The state store in the local state folder: the journal files and `ensure.lock`, for this machine alone. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../domain/errors.js';
import { printable } from '../../domain/printable.js';
import { Journal, pendingRecordsIn } from './journal.js';
import type { JournalScope, OrderJournal } from '../../journal/order-journal.js';
import type { SpendLedger } from '../../journal/spend-ledger.js';
import { ensureLockPath, journalDir } from '../../journal/state-dir.js';
import type { ClaimOptions, Claims, StateStore, StoreStatus } from '../state-store.js';

export class LocalStore implements StateStore {
  readonly kind = 'folder';
  #named = false;

  constructor(
    readonly stateDir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get where(): string {
    return journalDir(this.stateDir);
  }

  async journal(scope: JournalScope, note: (line: string) => void = () => undefined): Promise<OrderJournal> {
    const journal = new Journal(this.stateDir, scope);
    if (!this.#named) {
      this.#named = true;
      const { nameRecordsByKey, noteSpelling } = await import('./key-names.js');
      const { merged } = nameRecordsByKey(journal.folder);
      if (merged > 0)
        note(
          `energy: ${merged} journal record(s) stood twice, under two spellings of the API's URL for one key: one of each is kept, the other is in ${journal.folder}/merged`,
        );
      noteSpelling(journal.folder, scope, note);
    }
    return journal;
  }

  async allPending(): ReturnType<StateStore['allPending']> {
    return pendingRecordsIn(this.stateDir);
  }

  /** Every address is this run's; its decision takes the machine-wide lock (ensure.lock), waiting for it. */
  async claims({ note }: ClaimOptions): Promise<Claims> {
    const lockPath = await ensureLockPath(this.env);
    const [{ withEnsureLock }, { everyAddress }] = await Promise.all([
      import('./ensure-lock.js'),
      import('../address-claim.js'),
    ]);
    return async (_scope, addresses) =>
      everyAddress(addresses, async (held, work) => withEnsureLock(await lockPath(), () => work(held), note));
  }

  async spendLedger(name: string, account: JournalScope): Promise<SpendLedger> {
    const [{ FileSpendLedger, spendLedgerPath }, { legacyLedger }, { accountLedger }] = await Promise.all([
      import('./spend-ledger-file.js'),
      import('./spend-ledger-v1.js'),
      import('../../journal/spend-ledger.js'),
    ]);
    const folder = journalDir(this.stateDir);
    const legacy = name === accountLedger(account.keyId) ? legacyLedger(folder, account) : undefined;
    return new FileSpendLedger(spendLedgerPath(folder, name), name, { ...(legacy !== undefined && { legacy }) });
  }

  async importSpendLedgers(): Promise<number> {
    return this.importRecords();
  }

  async importRecords(): Promise<never> {
    throw new UsageError('energy state import copies a local journal into a shared store: none is configured', {
      hint: 'set ENERGY_STATE_URL (or the state-url setting, or --state-url) to the postgresql:// URL of the database',
    });
  }

  /** The folder: this machine alone; its one lease is `ensure.lock` while a run holds it (no expiry: a holder alive here is waited for). */
  async status(serverNowMs?: number): Promise<StoreStatus> {
    const [{ holderState, lockSystem, readHolder }, { listJson }, { folderLedgerTotals }] = await Promise.all([
      import('../../storage/lock-holder.js'),
      import('../../journal/read-records.js'),
      import('./folder-ledgers.js'),
    ]);
    const folder = journalDir(this.stateDir);
    const { records, unreadable } = existsSync(folder)
      ? pendingRecordsIn(this.stateDir)
      : { records: [], unreadable: [] };
    const holder = readHolder(join(folder, 'ensure.lock'));
    // The server's clock, as the ledger's entries are stamped; without one, this host's.
    const nowMs = serverNowMs ?? Date.now();
    return {
      store: 'folder',
      where: this.where,
      schema_version: null,
      program_schema_version: null,
      hosts:
        holder === undefined
          ? []
          : [
              {
                host: printable(holder.host, 64),
                pid: holder.pid,
                program: null,
                // A holder of this machine checked alive (pid and start time); one left by a killed run is silent.
                state:
                  holderState(holder, lockSystem(), new Set()) === 'dead' ? ('silent' as const) : ('live' as const),
                every_ms: null,
                last_claim_at: new Date(holder.since).toISOString(),
                ended_at: null,
                last_claimed: 0,
                last_skipped: 0,
                leases_held: 1,
                leases_expire_at: null,
              },
            ],
      leases: { held: holder === undefined ? 0 : 1, soonest_expiry: null, latest_expiry: null },
      pending: { records: records.length, oldest: records[0]?.journaled_at ?? null, unreadable: unreadable.length },
      // The folder keeps no rows of its runs: the one running now holds the lock.
      runs: { total: 0, not_ended: 0, last_at: null, by_host: [] },
      merged_records: listJson(join(folder, 'merged')).length,
      clock: { source: serverNowMs === undefined ? 'host' : 'server', now: new Date(nowMs).toISOString() },
      ledgers: await folderLedgerTotals(folder, nowMs),
    };
  }

  async health(): ReturnType<StateStore['health']> {
    return { schemaVersion: null, latencyMs: 0 };
  }

  async close(): Promise<void> {
    // Nothing held open between calls.
  }
}
