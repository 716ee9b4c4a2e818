/**
 * Files that survive a crash or a power cut whole or not at all: the bytes go to a temporary file that is
 * fsync'd, then take the final name in one step (rename, or link when the name must be new), and the
 * folder is fsync'd so that the name itself is durable. A reader never sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;

export interface DurableWriteOptions {
  /** Only create: leave an existing file as it is and return false. */
  exclusive?: boolean;
  mode?: number;
}

/** Writes `data` to `path` durably; returns false only when `exclusive` and the file already exists. */
export function writeDurably(path: string, data: string | Buffer, options: DurableWriteOptions = {}): boolean {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', options.mode ?? PRIVATE_FILE_MODE);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(temporary);
    throw error;
  }
  closeSync(fd);
  try {
    if (options.exclusive === true) {
      // link() fails with EEXIST instead of replacing: two writers of one new name cannot both win.
      try {
        linkSync(temporary, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      } finally {
        unlinkQuietly(temporary);
      }
    } else {
      renameSync(temporary, path);
    }
  } catch (error) {
    unlinkQuietly(temporary);
    throw error;
  }
  syncFolder(dirname(path));
  return true;
}

/** Makes a rename, link or unlink in `dir` durable. Some file systems cannot: then it is best effort. */
export function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // EINVAL/EISDIR on file systems that cannot sync a folder: the data itself is already on disk.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to do.
  }
}
