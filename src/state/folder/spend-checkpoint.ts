/**
 * A folder ledger's checkpoint, `<ledger file>.totals` beside its log: what the log's first `covers` bytes
 * add up to (spend-folder-book.ts: the settled entries compactly, the open ones whole, the longest window,
 * the newest time, the key ids' base URLs), so that a process reads the log only past it. Written under the
 * ledger's lock after the log's lines are durable, to a temporary file renamed into place: a kill between
 * the two leaves the checkpoint behind the log, whose tail is then read. It is used only where it still
 * describes the log: the log at least `covers` long, its first and last 4 KiB before `covers` the bytes the
 * checkpoint saw, its own bytes whole (SHA-256); anything else (no file, another log in its place, a log cut
 * short, a damaged checkpoint) and the log is read from its start, as before there were checkpoints.
 * The layout: one JSON line (padded to 8 bytes), then the running sums' times (float64) and sums (int64),
 * then the keys (16 bytes each) and their seconds (uint32), in this machine's byte order (said in the line).
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { endianness } from 'node:os';
import { writeDurably } from '../../storage/durable-file.js';
import { READ_NONBLOCK } from '../../storage/bounded-read.js';
import { PRIVATE_FILE_MODE } from '../../storage/file-modes.js';
import type { SpendEntry } from '../../journal/spend-book.js';
import { FolderBook } from './spend-folder-book.js';
import { SettledIndex } from './spend-settled.js';

const FORMAT = 'energy spend totals';
const VERSION = 1;
const EDGE = 4096;

interface Meta {
  format: string;
  version: number;
  ledger: string;
  endian: string;
  covers: number;
  head: string;
  tail: string;
  longest_window_ms: number;
  newest_ms: number | null;
  forgotten: number;
  origins: [string, string][];
  open: StoredEntry[];
  keys: number;
  counted: number;
  sha256: string;
}

interface StoredEntry {
  id: string;
  address: string;
  key_id: string | null;
  origin: string | null;
  holds: [string, string, number][];
  order: SpendEntry['order'] | null;
  final: SpendEntry['final'] | null;
}

/** What a checkpoint restores: the book as of `covers`, and how many forgotten entries' lines the log holds. */
export interface Checkpoint {
  book: FolderBook;
  covers: number;
  forgotten: number;
}

export function checkpointPath(ledgerPath: string): string {
  return `${ledgerPath}.totals`;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The log's first and last 4 KiB before `covers`, hashed: how a checkpoint knows its log. */
async function edges(log: FileHandle, covers: number): Promise<{ head: string; tail: string } | undefined> {
  const read = async (from: number, length: number) => {
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await log.read(bytes, 0, length, from);
    return bytesRead === length ? bytes : undefined;
  };
  const head = await read(0, Math.min(EDGE, covers));
  const tail = await read(Math.max(0, covers - EDGE), Math.min(EDGE, covers));
  return head === undefined || tail === undefined ? undefined : { head: sha256(head), tail: sha256(tail) };
}

function binaryOf(book: FolderBook): Buffer[] {
  const { times, keys, seconds } = book.settled.parts;
  const prefix = book.settled.prefix;
  const view = (array: Float64Array | BigInt64Array | Uint32Array) =>
    Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  return [view(times), view(prefix), keys, view(seconds)];
}

/** Writes the checkpoint of `book` as read up to `covers` of the log (`log`: open on it). */
export async function writeCheckpoint(path: string, ledger: string, log: FileHandle, state: Checkpoint): Promise<void> {
  const { book, covers, forgotten } = state;
  const seen = await edges(log, covers);
  if (seen === undefined) return;
  const binary = Buffer.concat(binaryOf(book));
  const meta: Meta = {
    format: FORMAT,
    version: VERSION,
    ledger,
    endian: endianness(),
    covers,
    ...seen,
    longest_window_ms: book.longestWindowMs,
    newest_ms: Number.isFinite(book.newestMs) ? book.newestMs : null,
    forgotten,
    origins: book.origins(),
    open: [...book.entries.values()].map((entry) => ({
      ...entry,
      key_id: entry.key_id ?? null,
      origin: entry.origin ?? null,
      holds: [...entry.holds].map(([holder, hold]): [string, string, number] => [holder, hold.total_trx, hold.at_ms]),
      order: entry.order ?? null,
      final: entry.final ?? null,
    })),
    keys: book.settled.size,
    counted: book.settled.parts.times.length,
    sha256: sha256(binary),
  };
  const line = JSON.stringify(meta);
  const padded = `${line}${' '.repeat((8 - ((Buffer.byteLength(line) + 1) % 8)) % 8)}\n`;
  await writeDurably(path, Buffer.concat([Buffer.from(padded, 'utf8'), binary]), { mode: PRIVATE_FILE_MODE });
}

/** The checkpoint at `path` when it describes `log` as it is now; undefined when there is none that does. */
export async function readCheckpoint(path: string, ledger: string, log: FileHandle): Promise<Checkpoint | undefined> {
  let bytes: Buffer;
  try {
    const file = await open(path, READ_NONBLOCK);
    try {
      if (!(await file.stat()).isFile()) return undefined;
      bytes = await file.readFile();
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
  const end = bytes.indexOf(0x0a) + 1;
  let meta: Meta;
  try {
    meta = JSON.parse(bytes.subarray(0, end).toString('utf8')) as Meta;
  } catch {
    return undefined;
  }
  if (meta.format !== FORMAT || meta.version !== VERSION || meta.ledger !== ledger || meta.endian !== endianness())
    return undefined;
  if (end === 0 || end % 8 !== 0 || !Number.isSafeInteger(meta.covers) || meta.covers < 0) return undefined;
  if ((await log.stat()).size < meta.covers) return undefined;
  const seen = await edges(log, meta.covers);
  if (seen?.head !== meta.head || seen.tail !== meta.tail) return undefined;
  const binary = bytes.subarray(end);
  const size = meta.counted * 16 + 8 + meta.keys * 20;
  if (binary.length !== size || sha256(binary) !== meta.sha256) return undefined;
  // Typed arrays over the file's own bytes where they are aligned (no copy), else over a copy.
  const base = binary.byteOffset % 8 === 0 ? binary : Buffer.from(binary);
  const at = (offset: number) => base.byteOffset + offset;
  const times = new Float64Array(base.buffer, at(0), meta.counted);
  const prefix = new BigInt64Array(base.buffer, at(meta.counted * 8), meta.counted + 1);
  const keysAt = meta.counted * 16 + 8;
  const keys = base.subarray(keysAt, keysAt + meta.keys * 16);
  const seconds = new Uint32Array(base.buffer, at(keysAt + meta.keys * 16), meta.keys);
  const book = new FolderBook(
    new SettledIndex({ times, prefix, keys, seconds }),
    meta.origins,
    meta.longest_window_ms,
    meta.newest_ms ?? -Infinity,
  );
  for (const stored of meta.open)
    book.book.entries.set(stored.id, {
      id: stored.id,
      address: stored.address,
      key_id: stored.key_id ?? undefined,
      origin: stored.origin ?? undefined,
      holds: new Map(stored.holds.map(([holder, total_trx, at_ms]) => [holder, { total_trx, at_ms }])),
      order: stored.order ?? undefined,
      final: stored.final ?? undefined,
    });
  return { book, covers: meta.covers, forgotten: meta.forgotten };
}
