/**
 * Files that survive a crash or a power cut whole or not at all: the bytes go to a temporary file that is
 * fsync'd, then take the final name in one step (rename, or link when the name must be new), and the
 * folder is fsync'd so that the name itself is durable. A reader never sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { link, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_FILE_MODE } from './file-modes.js';

/** The file system calls a durable write makes: node:fs/promises, or a test's wrapper that watches them. */
export interface DurableFs {
  open: typeof open;
  link: typeof link;
  rename: typeof rename;
}

const NODE_FS: DurableFs = { open, link, rename };

export interface DurableWriteOptions {
  /** Only create: leave an existing file as it is and return false. */
  exclusive?: boolean;
  mode?: number;
  /**
   * Also fsync the folder, so that the new name survives a power cut (default true). Off where losing the
   * name is harmless: the caller keeps an older record that stays valid until the new one is durable.
   */
  syncFolder?: boolean;
  /** Default node:fs/promises. */
  fs?: DurableFs | undefined;
}

/**
 * Writes `data` to `path` durably; returns false only when `exclusive` and the file already exists.
 * Asynchronous, so that the fsyncs of concurrent writers (a batch's workers) run side by side on libuv's
 * threads, where the file system can commit them together, instead of blocking the event loop in turn.
 */
export async function writeDurably(
  path: string,
  data: string | Buffer,
  options: DurableWriteOptions = {},
): Promise<boolean> {
  const fs = options.fs ?? NODE_FS;
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const file = await fs.open(temporary, 'wx', options.mode ?? PRIVATE_FILE_MODE);
  try {
    await file.writeFile(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    await file.sync();
  } catch (error) {
    await file.close();
    unlinkQuietly(temporary);
    throw error;
  }
  await file.close();
  try {
    if (options.exclusive === true) {
      // link() fails with EEXIST instead of replacing: two writers of one new name cannot both win.
      try {
        await fs.link(temporary, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      } finally {
        // The name is taken (or was not ours to take); the temporary file can go whenever it goes.
        void removeQuietly(temporary);
      }
    } else {
      await fs.rename(temporary, path);
    }
  } catch (error) {
    unlinkQuietly(temporary);
    throw error;
  }
  if (options.syncFolder !== false) await syncFolder(dirname(path), fs);
  return true;
}

/**
 * Makes a rename, link or unlink in `dir` durable. Concurrent callers share folder syncs: one that
 * arrives while a sync runs waits for the next one (which starts after its change, so covers it), and all
 * who arrive meanwhile share that next one. A batch's workers thus pay for a few folder syncs, not one each.
 */
export function syncFolder(dir: string, fs: Pick<DurableFs, 'open'> = NODE_FS): Promise<void> {
  const state = folderSyncs.get(dir) ?? { running: undefined, next: undefined };
  folderSyncs.set(dir, state);
  if (state.running === undefined) {
    state.running = fsyncFolder(dir, fs).finally(() => {
      state.running = undefined;
    });
    return state.running;
  }
  state.next ??= state.running.then(() => {
    state.next = undefined;
    return syncFolder(dir, fs);
  });
  return state.next;
}

const folderSyncs = new Map<string, { running: Promise<void> | undefined; next: Promise<void> | undefined }>();

async function fsyncFolder(dir: string, fs: Pick<DurableFs, 'open'>): Promise<void> {
  let folder: FileHandle | undefined;
  try {
    folder = await fs.open(dir, 'r');
    await folder.sync();
  } catch {
    // EINVAL/EISDIR on file systems that cannot sync a folder: the data itself is already on disk.
  } finally {
    await folder?.close();
  }
}

/** Removes a file off the event loop (a batch removes thousands); a file already gone is not an error. */
export async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to do.
  }
}
