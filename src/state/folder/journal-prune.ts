/**
 * The journal's housekeeping: settled records end after the retention period, and temporary files a
 * killed writer left behind are swept. Pending records are never pruned here: they stop counting in
 * flight past their term (issue 44) but stay listed until settled or dropped.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { listJson } from '../../journal/read-records.js';
import { sweepTemporaries } from './sweep.js';

/** Settled records are kept this long (and pending ones until they are settled). */
export const RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * Removes settled records older than the retention period from the journal at `root`. Runs at most once
 * a day (a marker file remembers when), so that an order command does not list a large folder every
 * time. `ensureFolders` makes the journal's folders before the marker is written.
 */
export async function pruneJournal(root: string, ensureFolders: () => void): Promise<number> {
  const marker = join(root, 'last-prune');
  // Files' times are the host's: housekeeping compares them with the host's clock.
  const now = Date.now();
  try {
    if (now - statSync(marker).mtimeMs < DAY_MS) return 0;
  } catch {
    // No marker yet: prune now.
  }
  const folder = join(root, 'settled');
  const { removeQuietly, writeDurably } = await import('../../storage/durable-file.js');
  let removed = 0;
  for (const name of listJson(folder)) {
    const path = join(folder, name);
    try {
      if (now - statSync(path).mtimeMs > RETENTION_DAYS * DAY_MS) {
        await removeQuietly(path);
        removed += 1;
      }
    } catch {
      // Removed by a parallel prune.
    }
  }
  removed += await sweepTemporaries([folder, join(root, 'pending')], now, removeQuietly);
  try {
    ensureFolders();
    await writeDurably(marker, `${new Date(now).toISOString()}\n`);
  } catch {
    // Pruning is housekeeping: never fail an order over it.
  }
  return removed;
}
