/**
 * Reading journal files. A record that cannot be read (truncated, empty, garbled by hand, or written by a
 * newer version) is never skipped silently: it may stand for an order that was placed, so listings name it
 * with its path and why, and its id is refused until someone looks (see UnreadableRecordError).
 */
import { existsSync, readdirSync } from 'node:fs';
import { readRegularFileSync } from '../storage/bounded-read.js';
import { join } from 'node:path';
import { orderBody, parseRecord, type JournalRecord } from './record.js';

/** A journal file that exists but is not a record this version can trust. */
export interface UnreadableRecord {
  path: string;
  reason: string;
}

export type ReadResult = { record: JournalRecord } | { unreadable: UnreadableRecord } | undefined;

/** The record at `path`; undefined when there is no file. */
export function readRecordFile(path: string): ReadResult {
  // Most lookups find nothing: existsSync answers that without building an ENOENT error each time.
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readRegularFileSync(path);
  } catch (error) {
    // Gone between the check and the read (settled by a parallel run): nothing there.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const { code, message } = error as NodeJS.ErrnoException;
    return { unreadable: { path, reason: `cannot be read (${code === 'EFTYPE' ? message : (code ?? 'error')})` } };
  }
  const record = parseRecord(text);
  return record === undefined ? { unreadable: { path, reason: damage(text) } } : { record };
}

/** Why a file is not a record, in words: the first thing to check when looking at it. */
function damage(text: string): string {
  if (text.trim() === '') return 'empty';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON (truncated or garbled)';
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > 1)
    return `written by a newer version of energy (record version ${version})`;
  const body = (value as { body?: unknown } | null)?.body;
  if (typeof body === 'string' && orderBody(body) === undefined)
    return 'its order body is garbled (not the JSON of an order: address, energy, duration_hours, expected_total_trx)';
  return 'not a journal record (fields missing or of the wrong type)';
}

/** Every record and unreadable file in `folder`, records oldest first. */
export function readFolder(folder: string, prefix = ''): { records: JournalRecord[]; unreadable: UnreadableRecord[] } {
  const records: JournalRecord[] = [];
  const unreadable: UnreadableRecord[] = [];
  for (const name of listJson(folder)) {
    if (!name.startsWith(prefix)) continue;
    const result = readRecordFile(join(folder, name));
    if (result === undefined) continue;
    if ('record' in result) records.push(result.record);
    else unreadable.push(result.unreadable);
  }
  records.sort((a, b) => a.journaled_at.localeCompare(b.journaled_at));
  return { records, unreadable };
}

export function listJson(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
}
