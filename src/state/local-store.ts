/** The state store in the local state folder: today's journal files and `ensure.lock`, for this machine alone. */
import { UsageError } from '../domain/errors.js';
import { Journal, pendingRecordsIn } from '../journal/journal.js';
import type { JournalScope, OrderJournal } from '../journal/order-journal.js';
import type { SpendLedger } from '../journal/spend-ledger.js';
import { ensureLockPath, journalDir } from '../journal/state-dir.js';
import type { Exclusive, StateStore } from './state-store.js';

export class LocalStore implements StateStore {
  readonly kind = 'folder';

  constructor(
    readonly stateDir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get where(): string {
    return journalDir(this.stateDir);
  }

  async journal(scope: JournalScope): Promise<OrderJournal> {
    return new Journal(this.stateDir, scope);
  }

  async allPending(): ReturnType<StateStore['allPending']> {
    return pendingRecordsIn(this.stateDir);
  }

  async decisions(note: (line: string) => void): Promise<Exclusive> {
    const lockPath = await ensureLockPath(this.env);
    const { withEnsureLock } = await import('../ensure/ensure-lock.js');
    return async (work) => withEnsureLock(await lockPath(), work, note);
  }

  async spendLedger(name: string, account: JournalScope): Promise<SpendLedger> {
    const [{ FileSpendLedger, spendLedgerPath }, { legacyLedger }, { accountLedger }] = await Promise.all([
      import('../journal/spend-ledger-file.js'),
      import('../journal/spend-ledger-v1.js'),
      import('../journal/spend-ledger.js'),
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

  async health(): ReturnType<StateStore['health']> {
    return { schemaVersion: null, latencyMs: 0 };
  }

  async close(): Promise<void> {
    // Nothing held open between calls.
  }
}
