/** Every record of a local journal folder, for `energy state import` (state/): read, never written. */
import { join } from 'node:path';
import { assertPrivate } from '../../config/permissions.js';
import { readFolder, type UnreadableRecord } from '../../journal/read-records.js';
import { hasOrder, type JournalRecord } from '../../journal/record.js';
import { journalDir } from '../../journal/state-dir.js';

/** Every record in the journal folder of `stateDir` (pending, then settled; each oldest first), for `energy state import`. */
export function localRecords(stateDir: string): { records: JournalRecord[]; unreadable: UnreadableRecord[] } {
  assertPrivate(journalDir(stateDir), 'folder', 'state');
  const pending = readFolder(join(journalDir(stateDir), 'pending'));
  const settled = readFolder(join(journalDir(stateDir), 'settled'));
  // Both files for one id: the settled one when it has an order (the pending one is a leftover), else the
  // pending one (a refused request sent again).
  const key = (record: JournalRecord) => `${record.origin}\n${record.key_id}\n${record.client_request_id}`;
  const ordered = new Set(settled.records.filter(hasOrder).map(key));
  const waiting = new Set(pending.records.map(key));
  return {
    records: [
      ...pending.records.filter((record) => !ordered.has(key(record))),
      ...settled.records.filter((record) => hasOrder(record) || !waiting.has(key(record))),
    ],
    unreadable: [...pending.unreadable, ...settled.unreadable],
  };
}
