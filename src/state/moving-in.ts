/**
 * Moving in: a host that names a shared state store (ENERGY_STATE_URL) while its own state folder still holds
 * pending order requests the store does not have. Whether their orders were placed is known only to that
 * folder, so the hosts sharing the store cannot count them in flight nor settle them: until `energy state
 * import` copies them in, this host orders nothing at all (order create, order batch, ensure and each cycle
 * of ensure --every refuse, exit 5, naming them), and `energy doctor` reports them. A pending record counts as
 * moved in once the shared store holds its id, in any state: the folder's files stay after an import.
 */
import { existsSync } from 'node:fs';
import { ConflictError } from '../domain/cli-errors.js';
import { pendingRecordsIn } from '../journal/journal.js';
import type { UnreadableRecord } from '../journal/read-records.js';
import { recordedOrder, type JournalRecord } from '../journal/record.js';
import { journalDir } from '../journal/state-dir.js';
import type { StateStore } from './state-store.js';

export interface LeftBehind {
  folder: string;
  records: JournalRecord[];
  unreadable: UnreadableRecord[];
}

/** The folder's pending records the shared store does not hold, and its unreadable ones; none for a folder store. */
export async function leftBehind(store: StateStore, stateDir: string): Promise<LeftBehind> {
  const folder = journalDir(stateDir);
  if (store.kind !== 'postgresql' || !existsSync(folder)) return { folder, records: [], unreadable: [] };
  const { records, unreadable } = pendingRecordsIn(stateDir);
  const missing: JournalRecord[] = [];
  for (const record of records) {
    const journal = await store.journal({ origin: record.origin, keyId: record.key_id });
    if ((await journal.find(record.client_request_id)) === undefined) missing.push(record);
  }
  return { folder, records: missing, unreadable };
}

/** What `leftBehind` found, in a sentence; undefined when nothing is left behind. */
export function leftBehindSummary(left: LeftBehind): string | undefined {
  const count = left.records.length + left.unreadable.length;
  if (count === 0) return undefined;
  const named = [
    ...left.records.slice(0, 3).map((record) => {
      const order = recordedOrder(record);
      return `${record.client_request_id} (${order.address}, ${order.energy} energy, journaled ${record.journaled_at})`;
    }),
    ...left.unreadable.slice(0, 3).map((file) => `${file.path} (unreadable: ${file.reason})`),
  ];
  const more = count > named.length ? ` and ${count - named.length} more` : '';
  const requests = count === 1 ? '1 order request' : `${count} order requests`;
  return `${requests} pending in this host's state folder ${left.folder} ${count === 1 ? 'is' : 'are'} not in the shared state store: ${named.join(', ')}${more}`;
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
