/**
 * The journal folder's records named by the account alone (issue 38 item 4): a file's name starts with a
 * digest of the API key's id, never of the base URL's spelling, so that `http://127.0.0.1:p` and
 * `http://localhost:p` find one record. Files named by the earlier scheme (URL and key) are renamed once per
 * folder, the first time a run of this version opens it (a marker file then says it is done). Two records of
 * one id under two spellings are one: the one with an order is kept (else the pending one, else the earliest
 * journaled); the other moves to `merged/`, where it stays readable. Renames are links that never replace a
 * file, so two runs renaming at once cannot lose a record.
 */
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../storage/file-modes.js';
import { listJson, readRecordFile } from '../../journal/read-records.js';
import type { JournalScope } from '../../journal/order-journal.js';
import { hasOrder, type JournalRecord } from '../../journal/record.js';

/** Present once every record of the folder is named by its key alone. */
const MARKER = 'named-by-key';

/** The first part of a record's file name: one account per API key. */
export function keyPrefix(keyId: string): string {
  return digest(`account\n${keyId}`, 16);
}

/** A record's file name. */
export function recordFileName(keyId: string, clientRequestId: string): string {
  return `${keyPrefix(keyId)}-${digest(clientRequestId, 32)}.json`;
}

/** Renames the folder's records to their key's names, once; says how many records were one under two URLs. */
export function nameRecordsByKey(root: string): { merged: number } {
  const marker = join(root, MARKER);
  if (existsSync(marker)) return { merged: 0 };
  const folders = ['pending', 'settled'].map((state) => join(root, state));
  if (!folders.some((folder) => existsSync(folder))) return { merged: 0 };
  let merged = 0;
  for (const folder of folders) {
    for (const name of listJson(folder)) {
      const found = readRecordFile(join(folder, name));
      // A file that is not a record keeps its name: it is reported as it is, wherever it lies.
      if (found === undefined || !('record' in found)) continue;
      const { record } = found;
      const wanted = recordFileName(record.key_id, record.client_request_id);
      if (wanted !== name && moveRecord(folder, name, wanted, record, root)) merged += 1;
    }
  }
  try {
    writeFileSync(marker, `${new Date().toISOString()}\n`, { mode: PRIVATE_FILE_MODE });
  } catch {
    // Done again next time: renaming is idempotent.
  }
  return { merged };
}

/**
 * Notes the URL spelling a run uses for its key (`origins/`, one empty file each, in a journal folder that
 * exists already); the first time a key is used under a second spelling, says so: one account either way.
 */
export function noteSpelling(root: string, scope: JournalScope, note: (line: string) => void): void {
  const folder = join(root, 'origins');
  const prefix = `${keyPrefix(scope.keyId)}-`;
  const own = `${prefix}${digest(scope.origin, 16)}`;
  try {
    if (!existsSync(root) || existsSync(join(folder, own))) return;
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const others = readdirSync(folder).filter((name) => name.startsWith(prefix));
    writeFileSync(join(folder, own), `${scope.origin}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    if (others.length > 0) note(spellingNote(scope, others.length));
  } catch {
    // Only a note: another run wrote it at the same moment, or the folder cannot take it.
  }
}

/** What a store says when it first meets a key under another spelling of the URL. */
export function spellingNote(scope: JournalScope, others: number | string[]): string {
  const seen = typeof others === 'number' ? `${others} other spelling(s)` : others.join(', ');
  return `energy: this API key was used with ${seen} of the API's URL before ${scope.origin}: the journal, pending records and claims are the key's (one account), whatever the URL says`;
}

/** Gives `name` the name `wanted`; true when a record of the same id was there already (one is set apart). */
function moveRecord(folder: string, name: string, wanted: string, record: JournalRecord, root: string): boolean {
  const from = join(folder, name);
  const to = join(folder, wanted);
  try {
    linkSync(from, to);
    unlinkSync(from);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  const there = readRecordFile(to);
  const other = there !== undefined && 'record' in there ? there.record : undefined;
  if (other !== undefined && JSON.stringify(other) === JSON.stringify(record)) {
    unlinkSync(from);
    return false;
  }
  const mergedDir = join(root, 'merged');
  mkdirSync(mergedDir, { recursive: true, mode: 0o700 });
  if (other !== undefined && rank(record) < rank(other)) {
    // This one wins: the other is set apart first, then this one takes the name.
    linkSync(to, join(mergedDir, `${Date.now()}-${wanted}`));
    unlinkSync(to);
    linkSync(from, to);
  } else {
    linkSync(from, join(mergedDir, `${Date.now()}-${name}`));
  }
  unlinkSync(from);
  return true;
}

/** Which of two records of one id stands: the one with an order, else a pending one, else the earliest. */
function rank(record: JournalRecord): number {
  const kind = hasOrder(record) ? 0 : record.outcome === null ? 1 : 2;
  return kind * 1e15 + Date.parse(record.journaled_at) / 1000;
}

function digest(text: string, length: number): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, length);
}
