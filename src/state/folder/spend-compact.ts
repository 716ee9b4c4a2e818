/**
 * A folder ledger's log rewritten without the entries no window reaches (spend-ledger-file.ts, under the
 * ledger's lock): the header, the longest window, then every line of an entry the book still has, in order.
 * Read and written in pieces; the new file is synced, then renamed over the old one, then the folder synced.
 */
import { randomBytes } from 'node:crypto';
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncFolder, removeQuietly } from '../../storage/durable-file.js';
import { READ_NONBLOCK } from '../../storage/bounded-read.js';
import { PRIVATE_FILE_MODE } from '../../storage/file-modes.js';
import type { FolderBook } from './spend-folder-book.js';
import { eventLines, headerLine, parseEventLine } from '../../journal/spend-ledger-lines.js';
import { eachLine, lineWriter } from './spend-log.js';

/** Rewrites the log's first `upTo` bytes without what `book` no longer has; the new file's inode and size. */
export async function compactLog(
  path: string,
  ledger: string,
  upTo: number,
  book: FolderBook,
): Promise<{ ino: number; size: number }> {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const out = await open(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    const writer = lineWriter(out);
    await writer.add(headerLine(ledger));
    await writer.add(eventLines([{ kind: 'window', window_ms: book.longestWindowMs }]).text);
    const log = await open(path, READ_NONBLOCK);
    try {
      let header = true;
      await eachLine(log, 0, upTo, (line) => {
        if (header) {
          header = false;
          return;
        }
        const event = parseEventLine(line);
        if (event !== undefined && event.kind !== 'window' && book.has(event.id)) return writer.add(`${line}\n`);
      });
    } finally {
      await log.close();
    }
    const size = await writer.flush();
    await out.sync();
    const { ino } = await out.stat();
    await out.close();
    await rename(temporary, path);
    await syncFolder(dirname(path));
    return { ino, size };
  } catch (error) {
    await out.close().catch(() => undefined);
    await removeQuietly(temporary);
    throw error;
  }
}
