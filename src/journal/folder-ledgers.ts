/**
 * Every spend ledger of a state folder, whole, for `energy state import`: what the folder's ceilings counted
 * moves into the shared store with the journal, so that moving in does not lift a ceiling. A ledger that
 * cannot be read is an error (the import stops before anything of the ledgers is written), as for a ceiling.
 */
import { readdir } from 'node:fs/promises';
import { readRegularFileText } from '../storage/bounded-read.js';
import { join } from 'node:path';
import { describeFsError } from '../config/permissions.js';
import { UsageError } from '../domain/errors.js';
import { isLedgerFile } from './spend-ledger-file.js';
import { ledgerOfHeader, parseEventLine } from './spend-ledger-lines.js';
import type { StoredEvent } from './spend-ledger.js';

export interface FolderLedger {
  ledger: string;
  path: string;
  events: StoredEvent[];
  longestWindowMs: number;
}

export async function folderLedgers(journalFolder: string): Promise<FolderLedger[]> {
  let names: string[];
  try {
    names = await readdir(journalFolder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new UsageError(`cannot read ${journalFolder}: ${describeFsError(error)}`);
  }
  const ledgers: FolderLedger[] = [];
  for (const name of names.filter(isLedgerFile).sort()) {
    const path = join(journalFolder, name);
    const bad = (why: string) =>
      new UsageError(`the --max-spend ledger ${path} cannot be read (${why}): nothing of the ledgers was imported`);
    let text: string;
    try {
      text = await readRegularFileText(path);
    } catch (error) {
      throw bad(describeFsError(error));
    }
    // Up to the last line break: a last line cut short by a crash placed nothing.
    const [header, ...lines] = text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .slice(0, -1);
    const ledger = header === undefined ? undefined : ledgerOfHeader(header);
    if (ledger === undefined) throw bad('no ledger header');
    const events: StoredEvent[] = [];
    let longestWindowMs = 0;
    for (const [index, line] of lines.entries()) {
      const event = parseEventLine(line);
      if (event === undefined) throw bad(`line ${index + 2} is not a ledger event`);
      if (event.kind === 'window') longestWindowMs = Math.max(longestWindowMs, event.window_ms);
      events.push(event);
    }
    ledgers.push({ ledger, path, events, longestWindowMs });
  }
  return ledgers;
}
