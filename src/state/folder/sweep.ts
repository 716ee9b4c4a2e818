/**
 * Housekeeping for prune: a durable write's temporary file (src/storage/durable-file.ts) holds a whole
 * order body, and a kill between its link() and unlink leaves it behind for ever unless swept.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const DAY_MS = 86_400_000;
/** A write's temporary file lives for milliseconds; one a day old was left by a kill between link and unlink. */
const TEMPORARY_MAX_AGE_MS = DAY_MS;

/** Removes temporary files (`*.tmp`, whole order bodies) that a killed writer left behind. */
export async function sweepTemporaries(
  folders: string[],
  now: number,
  remove: (path: string) => Promise<void>,
): Promise<number> {
  let removed = 0;
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder).filter((name) => name.endsWith('.tmp'));
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(folder, name);
      try {
        if (now - statSync(path).mtimeMs <= TEMPORARY_MAX_AGE_MS) continue;
      } catch {
        continue;
      }
      await remove(path);
      removed += 1;
    }
  }
  return removed;
}
