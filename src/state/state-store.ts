/**
 * Where what hosts know is kept: the order journal, the pending records of every API and key, and `ensure`'s
 * decisions one at a time. The local state folder (local-store.ts) by default; PostgreSQL (pg/pg-store.ts)
 * when ENERGY_STATE_URL (setting `state-url`, option --state-url) names one, shared by every host naming it.
 */
import type { JournalScope, OrderJournal } from '../journal/order-journal.js';
import type { UnreadableRecord } from '../journal/read-records.js';
import type { JournalRecord } from '../journal/record.js';
import type { FolderLedger } from '../journal/folder-ledgers.js';
import type { SpendLedger } from '../journal/spend-ledger.js';

/** The decisions one run is about to make: for these addresses, on this account (API and key). */
export interface DecisionKeys {
  scope: JournalScope;
  addresses?: readonly string[] | undefined;
}

/**
 * Runs `work` alone among the runs sharing this store that decide for any of the addresses on this account
 * (the local folder: alone on this machine, whatever the addresses): from counting what is in flight to the
 * last order journaled.
 */
export type Exclusive = <T>(work: () => Promise<T>, keys: DecisionKeys) => Promise<T>;

export interface StateStore {
  readonly kind: 'folder' | 'postgresql';
  /** The folder, or the database's URL without its password: said in messages. */
  readonly where: string;
  /** The journal of one API and key. */
  journal(scope: JournalScope): Promise<OrderJournal>;
  /** Pending records of every API and key, oldest first, and those that cannot be read. */
  allPending(): Promise<{ records: JournalRecord[]; unreadable: UnreadableRecord[] }>;
  /** `ensure`'s lock: checked now, taken per decision. `note` says what it waits for. */
  decisions(note: (line: string) => void): Promise<Exclusive>;
  /**
   * `ensure --max-spend`'s ledger of this name (`account <key id>` or `budget <name>`, spend-ledger.ts),
   * used by a run of `account` (the folder takes in an older energy's ledger of that base URL and key).
   */
  spendLedger(name: string, account: JournalScope): Promise<SpendLedger>;
  /** `energy state import`: a folder's ledgers copied in, each event once; how many events were new. */
  importSpendLedgers(ledgers: readonly FolderLedger[]): Promise<number>;
  /** `energy state import`: records of a local journal copied in; how many were added, settled there, or there already. */
  importRecords(records: readonly JournalRecord[]): Promise<Record<'added' | 'settled' | 'present', number>>;
  /** For `energy doctor`: the schema's version (null for the folder) and one round trip's time. */
  health(): Promise<{ schemaVersion: number | null; latencyMs: number }>;
  close(): Promise<void>;
}
