/**
 * Where what hosts know is kept: the order journal, the pending records of every API key, and `ensure`'s
 * claims on the addresses it decides. The local state folder (folder/local-store.ts) by default; PostgreSQL (pg/pg-store.ts)
 * when ENERGY_STATE_URL (setting `state-url`, option --state-url) names one, shared by every host naming it.
 */
import type { AddressClaim, ClaimSlice } from './address-claim.js';
import type { KnownAccounts } from './known-accounts.js';
import type { SharedOrderList } from './shared-list.js';
import type { JournalScope, OrderJournal } from '../journal/order-journal.js';
import type { UnreadableRecord } from '../journal/read-records.js';
import type { JournalRecord } from '../journal/record.js';
import type { FinalOrders } from '../journal/final-orders.js';
import type { FolderLedger } from './folder/folder-ledgers.js';
import type { SpendLedger } from '../journal/spend-ledger.js';
import type { LedgerTotals } from '../journal/spend-totals.js';

/** How a run claims its addresses: its notes, and for a service its interval (leases and due times follow it). */
export interface ClaimOptions {
  note: (line: string) => void;
  /** `--every` in ms; undefined for one run. */
  everyMs?: number | undefined;
}

/** Claims addresses for one account: the scope is asked for only where the store keys claims by it. */
export type Claims = (
  scope: () => Promise<JournalScope>,
  addresses: readonly string[],
  slice?: ClaimSlice,
) => Promise<AddressClaim>;

/**
 * A service as the claims saw it last (`energy state status`): ISO times on the store's clock. live: it
 * claimed, or renewed or let go its leases, within two of its intervals; silent: it stopped claiming without
 * saying so (killed, frozen, its host gone); ended: it stopped and said so. Kept 7 days after its last claim, a
 * day after its end.
 */
export interface HostStatus {
  host: string;
  pid: number;
  /** Its session's application_name (the program and its version, where set). */
  program: string | null;
  state: 'live' | 'silent' | 'ended';
  /** Its --every in ms (null where the store does not know: the folder's lock holder). */
  every_ms: number | null;
  last_claim_at: string;
  ended_at: string | null;
  /** Addresses it claimed at that claim, and those it skipped (held by others). */
  last_claimed: number;
  last_skipped: number;
  /** Leases it holds now, and when the last of them expires. */
  leases_held: number;
  leases_expire_at: string | null;
}

/** One-shot runs (no --every) of the last day, by host: how many, how many did not say they ended, the last. */
export interface RunsStatus {
  total: number;
  not_ended: number;
  last_at: string | null;
  by_host: { host: string; runs: number; not_ended: number; last_at: string }[];
}

/** What `energy state status` says of the store. */
export interface StoreStatus {
  store: StateStore['kind'];
  where: string;
  /** The store's schema version (null for the folder) and the one this program writes. */
  schema_version: number | null;
  program_schema_version: number | null;
  /** The services (`ensure --every`), live ones first. */
  hosts: HostStatus[];
  runs: RunsStatus;
  /** Leases held now, across hosts: how many, and the soonest and the latest expiry. */
  leases: { held: number; soonest_expiry: string | null; latest_expiry: string | null };
  /** Records whose outcome is unknown, across accounts; the oldest one's time. */
  pending: { records: number; oldest: string | null; unreadable: number };
  /** Records set apart when one id stood under two spellings of the URL (kept readable). */
  merged_records: number;
  /**
   * The clock the ledgers' windows end at: the API server's (one `GET /v1/time`), or where none can be read
   * (no API configured, or it does not answer) the database's, or for the folder this host's.
   */
  clock: { source: 'server' | 'database' | 'host'; now: string };
  /** Each --max-spend ledger: what it counts over its longest window as of `clock` (spend-totals.ts). */
  ledgers: LedgerTotals[];
}

export interface StateStore {
  readonly kind: 'folder' | 'postgresql';
  /** The folder, or the database's URL without its password: said in messages. */
  readonly where: string;
  /**
   * The journal of one account (the API key, whatever the URL's spelling). `note` hears, once, that the store
   * has met this key under another spelling of the URL.
   */
  journal(scope: JournalScope, note?: (line: string) => void): Promise<OrderJournal>;
  /** Pending records of every API and key, oldest first, and those that cannot be read. */
  allPending(): Promise<{ records: JournalRecord[]; unreadable: UnreadableRecord[] }>;
  /** `ensure`'s claims (state/address-claim.ts): checked now, taken per run or cycle. */
  claims(options: ClaimOptions): Promise<Claims>;
  /**
   * `ensure --max-spend`'s ledger of this name (`account <key id>` or `budget <name>`, spend-ledger.ts),
   * used by a run of `account` (the folder takes in an older energy's ledger of that base URL and key).
   */
  spendLedger(name: string, account: JournalScope): Promise<SpendLedger>;
  /** `energy state import`: a folder's ledgers copied in, each event once; how many events were new. */
  importSpendLedgers(ledgers: readonly FolderLedger[]): Promise<number>;
  /** `energy state import`: records of a local journal copied in; how many were added, settled there, or there already. */
  importRecords(records: readonly JournalRecord[]): Promise<Record<'added' | 'settled' | 'present', number>>;
  /**
   * For `energy state status`: hosts, runs, leases, pending records, schema; the ledgers' windows end at
   * `serverNowMs` (the API server's clock), or without it at the store's own clock.
   */
  status(serverNowMs?: number): Promise<StoreStatus>;
  /** Accounts the fleet knows on chain (PostgreSQL); undefined where each process asks for itself (the folder). */
  knownAccounts?(): KnownAccounts | undefined;
  /** Orders of the API key `keyId` the fleet knows ended (PostgreSQL); undefined where each process follows its own. */
  finalOrders?(keyId: string): FinalOrders | undefined;
  /** The order list of the API key `keyId` read by one service an interval (PostgreSQL); undefined: each its own. */
  sharedList?(keyId: string): SharedOrderList | undefined;
  /** For `energy doctor`: the schema's version (null for the folder) and one round trip's time. */
  health(): Promise<{ schemaVersion: number | null; latencyMs: number }>;
  close(): Promise<void>;
}
