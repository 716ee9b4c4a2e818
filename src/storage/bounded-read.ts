/**
 * Reading what a user points the tool at (`energy api --input`, ENERGY_API_SECRET_FILE, standard input)
 * with bounds, so that no input can hang the process or grow its memory without end:
 * - a named file is opened with O_NONBLOCK: a named pipe with no writer would otherwise hang open() in
 *   libuv's thread pool, where neither SIGTERM nor process.exit() can end it (only SIGKILL could). Then
 *   fstat decides before a byte is read: anything but a regular file (a pipe, a device such as /dev/zero,
 *   a folder, a socket) is refused, and so is a file above the cap;
 * - a stream (standard input) is read up to the cap and no further, and ends at once when `signal` aborts.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';

import { BoundedReadError } from '../domain/cli-errors.js';

/** 1024 → "1 KiB", 1048576 → "1 MiB". */
export function describeBytes(bytes: number): string {
  if (bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

// node:fs/promises and node:stream are loaded by the async readers when first called, not with this file:
// `balance` and `time` read config.json and the offset file through readRegularFileSync alone, and the two
// modules cost them ~1 ms of CPU each at start-up (issue 48).
const open: typeof import('node:fs/promises').open = (...args) =>
  process.getBuiltinModule('node:fs/promises').open(...args);

/** O_NONBLOCK where the platform has it (not on Windows, which has no named pipes in the file system). */
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * The flags for opening a file of the state or config folders to read: O_NONBLOCK, so that a FIFO put in
 * its place (a spend ledger, ensure.lock, a pending record, config.json, the clock-offset file) cannot
 * block open() beyond the reach of SIGTERM. A reader that opens with these checks `isFile()` on the handle
 * before it reads (a regular file ignores O_NONBLOCK).
 */
export const READ_NONBLOCK = constants.O_RDONLY | NONBLOCK;

/** What the readers below throw for anything but a regular file: `code` EFTYPE, the kind of file in `message`. */
function notRegularFile(path: string, stat: StatKind): NodeJS.ErrnoException {
  return Object.assign(new Error(`${kindOf(stat)}, not a regular file`), { code: 'EFTYPE', path });
}

/**
 * A file of the state or config folders, whole, as text: opened non-blocking and read only when it is a
 * regular file. Errors are Node's own (ENOENT, EACCES… for callers that tell them apart), or EFTYPE for a
 * named pipe, a folder, a device or a socket.
 */
export function readRegularFileSync(path: string): string {
  const fd = openSync(path, READ_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notRegularFile(path, stat);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** readRegularFileSync, without blocking the event loop while it reads. */
export async function readRegularFileText(path: string): Promise<string> {
  const handle = await open(path, READ_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notRegularFile(path, stat);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** The whole of a regular file of at most `maxBytes`; throws a BoundedReadError for anything else. */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NONBLOCK);
  } catch (error) {
    throw new BoundedReadError(openFailure(error));
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new BoundedReadError(`${kindOf(stat)}, not a regular file`);
    if (stat.size > maxBytes) throw new BoundedReadError(`larger than ${describeBytes(maxBytes)}`);
    // Read to the end, but never past the cap: the file may grow between fstat and the last read.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw new BoundedReadError(`larger than ${describeBytes(maxBytes)}`);
    }
    return Buffer.from(buffer.subarray(0, length));
  } catch (error) {
    if (error instanceof BoundedReadError) throw error;
    throw new BoundedReadError(openFailure(error));
  } finally {
    await handle.close();
  }
}

/**
 * A stream read to its end, at most `maxBytes`; stops reading (and destroys the stream) the moment the
 * cap is passed or `signal` aborts. Rejects with a BoundedReadError for the cap, with the signal's reason
 * when aborted.
 */
export async function readCappedStream(stream: Readable, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  if (signal !== undefined) {
    if (signal.aborted) throw signal.reason;
    process.getBuiltinModule('node:stream').addAbortSignal(signal, stream);
  }
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      length += bytes.length;
      // Leaving the loop destroys the stream: nothing more is read from an endless input.
      if (length > maxBytes) throw new BoundedReadError(`larger than ${describeBytes(maxBytes)}`);
      chunks.push(bytes);
    }
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    throw error;
  }
  return Buffer.concat(chunks);
}

type StatKind = Pick<
  Awaited<ReturnType<FileHandle['stat']>>,
  'isFIFO' | 'isDirectory' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket'
>;

function kindOf(stat: StatKind): string {
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return stat.isSocket() ? 'a socket' : 'not a file';
}

/** The error's code in words, never its message (which may quote the path's contents on some systems). */
function openFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'a folder, not a regular file';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'ENXIO':
      return 'a device or socket that cannot be opened, not a regular file';
    default:
      return code === undefined ? 'unreadable' : `unreadable (${code})`;
  }
}
