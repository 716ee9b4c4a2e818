/**
 * Moving in: a host that names a shared state store (ENERGY_STATE_URL) while its own state folder still holds
 * pending order requests the store does not have. Whether their orders were placed is known only to that
 * folder, so the hosts sharing the store cannot count them in flight nor settle them: until `energy state
 * import` copies them in, this host orders nothing at all (order create, order batch, ensure and each cycle
 * of ensure --every refuse, exit 5, naming them), and `energy doctor` reports them. A pending record counts as
 * moved in once the shared store holds its id, in any state: the folder's files stay after an import.
 * The same for the folder's `--max-spend` ledgers: one with entries that still count in its window (orders, open
 * holds) that the store's ledger of that name does not hold would let this host spend them again under an
 * empty shared ceiling. An entry counts as moved in once the store's ledger holds its id; one older than the
 * folder ledger's longest window counts for nothing any more (and the store prunes such entries after an
 * import: were they asked for, a host that moved in long ago would be refused for ever). The window's edge is
 * on this host's clock, as `state status` sums ledgers (no API clock is at hand here): a host whose clock is
 * off moves that edge by as much, never the entries inside it.
 */
import { existsSync } from 'node:fs';
import { ConflictError } from '../domain/cli-errors.js';
import { sumAmounts } from '../domain/money.js';
import { folderLedgers } from './folder/folder-ledgers.js';
import { pendingRecordsIn } from './folder/journal.js';
import type { UnreadableRecord } from '../journal/read-records.js';
import { recordedOrder, type JournalRecord } from '../journal/record.js';
import { journalDir } from '../journal/state-dir.js';
import { entryAmount } from '../journal/spend-book.js';
import { bookOf } from '../journal/spend-totals.js';
import type { StateStore } from './state-store.js';

export interface LeftBehind {
  folder: string;
  records: JournalRecord[];
  unreadable: UnreadableRecord[];
  /** The folder's --max-spend ledgers with entries in their window that the store's ledger does not hold. */
  ledgers: LedgerLeftBehind[];
}

export interface LedgerLeftBehind {
  ledger: string;
  path: string;
  /** The entries the store does not hold, and what they count (six decimals). */
  entries: number;
  spent_trx: string;
}

/** The folder's pending records the shared store does not hold, and its unreadable ones; none for a folder store. */
export async function leftBehind(store: StateStore, stateDir: string, nowMs = Date.now()): Promise<LeftBehind> {
  const folder = journalDir(stateDir);
  if (store.kind !== 'postgresql' || !existsSync(folder)) return { folder, records: [], unreadable: [], ledgers: [] };
  const { records, unreadable } = pendingRecordsIn(stateDir);
  const missing: JournalRecord[] = [];
  for (const record of records) {
    const journal = await store.journal({ origin: record.origin, keyId: record.key_id });
    if ((await journal.find(record.client_request_id)) === undefined) missing.push(record);
  }
  return { folder, records: missing, unreadable, ledgers: await ledgersLeftBehind(store, folder, unreadable, nowMs) };
}

/**
 * The folder's ledgers whose entries in their longest window are not all in the store's ledger of that name.
 * A ledger that cannot be read is named among the unreadable files: it may hold such entries.
 */
async function ledgersLeftBehind(
  store: StateStore,
  folder: string,
  unreadable: UnreadableRecord[],
  nowMs: number,
): Promise<LedgerLeftBehind[]> {
  let ledgers: Awaited<ReturnType<typeof folderLedgers>>;
  try {
    ledgers = await folderLedgers(folder);
  } catch (error) {
    unreadable.push({ path: folder, reason: (error as Error).message.replace(/: nothing of the ledgers .*$/, '') });
    return [];
  }
  const left: LedgerLeftBehind[] = [];
  for (const { ledger, path, events } of ledgers) {
    const book = bookOf(events);
    const counted = book.counted(nowMs - book.longestWindowMs);
    if (counted.length === 0) continue;
    const shared = await store.spendLedger(ledger, { origin: '', keyId: '' });
    const has = await shared.has(counted.map((entry) => entry.id));
    const missing = counted.filter((entry) => !has.has(entry.id));
    if (missing.length === 0) continue;
    left.push({ ledger, path, entries: missing.length, spent_trx: sumAmounts(missing.map((e) => entryAmount(e)!)) });
  }
  return left;
}

/** What `leftBehind` found, in a sentence; undefined when nothing is left behind. */
export function leftBehindSummary(left: LeftBehind): string | undefined {
  const ledgers = left.ledgers.map(
    (ledger) =>
      `the --max-spend ledger ${ledger.ledger} (${ledger.path}) counts ${ledger.entries === 1 ? '1 entry' : `${ledger.entries} entries`} in its window (${ledger.spent_trx} TRX) that the shared state store's ledger does not have`,
  );
  const count = left.records.length + left.unreadable.length;
  if (count === 0) return ledgers.length === 0 ? undefined : `in this host's state folder, ${ledgers.join('; ')}`;
  const named = [
    ...left.records.slice(0, 3).map((record) => {
      const order = recordedOrder(record);
      return `${record.client_request_id} (${order.address}, ${order.energy} energy, journaled ${record.journaled_at})`;
    }),
    ...left.unreadable.slice(0, 3).map((file) => `${file.path} (unreadable: ${file.reason})`),
  ];
  const more = count > named.length ? ` and ${count - named.length} more` : '';
  const requests = count === 1 ? '1 order request' : `${count} order requests`;
  const also = ledgers.length === 0 ? '' : `; and ${ledgers.join('; ')}`;
  return `${requests} pending in this host's state folder ${left.folder} ${count === 1 ? 'is' : 'are'} not in the shared state store: ${named.join(', ')}${more}${also}`;
}

export const IMPORT_HINT =
  'run `energy state import` on this host (it copies them into the shared store, where `energy order recover` settles each once); until then this host orders nothing';

/** The refusal of an ordering command while records are left behind (exit 5, nothing sent). */
export async function refuseWhileLeftBehind(store: StateStore, stateDir: string): Promise<void> {
  const summary = leftBehindSummary(await leftBehind(store, stateDir));
  if (summary === undefined) return;
  throw new ConflictError(`${summary}: nothing was ordered`, { hint: IMPORT_HINT });
}

/**
 * The check a shared store runs before ordering (pg-store.ts `guardOrdering`): before each decision of `ensure`
 * and each journal `begin` (every order request, before it is sent), it refuses while records are left behind.
 * Once it finds none it is not asked again in this run (an import meanwhile is seen by the next run); a
 * refusal is said again on the next try (the next cycle of a service), which reads the folder anew.
 */
export function movingInCheck(store: StateStore, stateDir: string): () => Promise<void> {
  let clear: Promise<void> | undefined;
  return () => {
    clear ??= refuseWhileLeftBehind(store, stateDir);
    return clear.catch((error: unknown) => {
      clear = undefined;
      throw error;
    });
  };
}
