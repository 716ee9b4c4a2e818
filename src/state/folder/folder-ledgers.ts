/**
 * Every spend ledger of a state folder: whole, for `energy state import` and moving in (what the folder's
 * ceilings counted moves into the shared store with the journal, so that moving in does not lift a ceiling:
 * every id is needed there); summed as a ceiling reads them, for `energy state status`. A ledger that cannot
 * be read is an error (the import stops before anything of the ledgers is written), as for a ceiling.
 */
import { open, readdir } from 'node:fs/promises';
import { readRegularFileText } from '../../storage/bounded-read.js';
import { join } from 'node:path';
import { describeFsError } from '../../config/permissions.js';
import { UsageError } from '../../domain/errors.js';
import { READ_NONBLOCK } from '../../storage/bounded-read.js';
import { FileSpendLedger, isLedgerFile } from './spend-ledger-file.js';
import { ledgerOfHeader, parseEventLine } from '../../journal/spend-ledger-lines.js';
import type { StoredEvent } from '../../journal/spend-ledger.js';
import type { LedgerTotals } from '../../journal/spend-totals.js';

export interface FolderLedger {
  ledger: string;
  path: string;
  events: StoredEvent[];
  longestWindowMs: number;
}

async function ledgerFiles(journalFolder: string): Promise<string[]> {
  try {
    return (await readdir(journalFolder)).filter(isLedgerFile).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new UsageError(`cannot read ${journalFolder}: ${describeFsError(error)}`);
  }
}

/**
 * What each of the folder's ledgers counts over its longest window (`energy state status`), each read as a
 * ceiling reads it (its checkpoint and the log's tail, spend-ledger-file.ts): not loaded whole, and without
 * its lock or a write, as status read the folder before.
 */
export async function folderLedgerTotals(journalFolder: string, nowMs: number): Promise<LedgerTotals[]> {
  const totals: LedgerTotals[] = [];
  for (const name of await ledgerFiles(journalFolder)) {
    const path = join(journalFolder, name);
    const ledger = await headerOf(path);
    if (ledger === undefined)
      throw new UsageError(
        `the --max-spend ledger ${path} cannot be read (no ledger header): --max-spend cannot count`,
      );
    totals.push(await new FileSpendLedger(path, ledger, { readOnly: true }).totals(nowMs));
  }
  return totals;
}

/** The ledger a log's first line names (its first 64 KiB read, no more). */
async function headerOf(path: string): Promise<string | undefined> {
  try {
    const file = await open(path, READ_NONBLOCK);
    try {
      const bytes = Buffer.alloc(1 << 16);
      const { bytesRead } = await file.read(bytes, 0, bytes.length, 0);
      const end = bytes.subarray(0, bytesRead).indexOf(0x0a);
      return end === -1 ? undefined : ledgerOfHeader(bytes.subarray(0, end).toString('utf8'));
    } finally {
      await file.close();
    }
  } catch (error) {
    throw new UsageError(
      `the --max-spend ledger ${path} cannot be read (${describeFsError(error)}): --max-spend cannot count`,
    );
  }
}

export async function folderLedgers(journalFolder: string): Promise<FolderLedger[]> {
  const ledgers: FolderLedger[] = [];
  for (const name of await ledgerFiles(journalFolder)) {
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
