/**
 * The spend ledger in the state folder: an append-only log, `<state>/journal/spend-<hash of its name>.ndjson`
 * (0600, in the journal's 0700 folder), its header naming the ledger, then one event a line
 * (spend-ledger-lines.ts). Every read and write is in the ledger's turn (spend-ledger-turn.ts: its lock file):
 * a change reads what others appended since its last look (the file's tail), decides, appends its lines in
 * one write at the end it read up to, and fsyncs before the lock goes. An event is never rewritten; entries
 * no ceiling can reach (older than the longest window used on the ledger) are dropped by a rewrite of the
 * whole file (spend-compact.ts: a temporary file, fsync, rename), under the lock.
 * What a process holds does not grow with the log: the entries that can no longer change are kept compactly
 * (spend-settled.ts, 36 bytes each), and a checkpoint beside the log (spend-checkpoint.ts, written under the
 * lock once the log has grown 512 KiB past the last one) holds them, so that a process reads only the log's
 * tail past it; the rest, orders without an outcome and holds without an order, stay whole entries.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describeFsError } from '../../config/permissions.js';
import { UsageError } from '../../domain/errors.js';
import { READ_NONBLOCK } from '../../storage/bounded-read.js';
import { syncFolder } from '../../storage/durable-file.js';
import type { LockOptions } from '../../storage/file-lock.js';
import { PRIVATE_FILE_MODE } from '../../storage/file-modes.js';
import { checkpointPath, readCheckpoint, writeCheckpoint } from './spend-checkpoint.js';
import { compactLog } from './spend-compact.js';
import { FolderBook, ledgerTotals } from './spend-folder-book.js';
import { holdInBook, knownEvents, lackingInBook, openOrdersInBook } from './spend-book-queries.js';
import {
  PRUNE_SLACK_MS,
  type HoldDecision,
  type HoldRequest,
  type LackingOrder,
  type OpenOrder,
  type SpendEvent,
  type SpendLedger,
} from '../../journal/spend-ledger.js';
import type { LedgerTotals } from '../../journal/spend-totals.js';
import { eventLines, headerLine, ledgerOfHeader, parseEventLine } from '../../journal/spend-ledger-lines.js';
import { ledgerTurn } from './spend-ledger-turn.js';
import { eachLine } from './spend-log.js';
import { readLegacy, type LegacyLedger } from './spend-ledger-v1.js';

/** Entries forgotten before the file is rewritten without them: at least this many, and half the rest. */
const COMPACT_AT = 100;
/** Log bytes past the checkpoint after which a change writes a new one (about 1,100 orders). */
const CHECKPOINT_BYTES = 1 << 19;
/** The ledger's file in the journal's folder, named by a hash of the ledger's name (`account <key id>`, `budget <name>`). */
export function spendLedgerPath(journalFolder: string, ledger: string): string {
  const hash = createHash('sha256').update(`energy spend ledger\n${ledger}`, 'utf8').digest('hex').slice(0, 16);
  return join(journalFolder, `spend-${hash}.ndjson`);
}

/** The ledger is damaged or cannot be read: an error, never an empty ledger (that would lift the ceiling). */
function unreadable(path: string, why: string): UsageError {
  return new UsageError(
    `the --max-spend ledger ${path} cannot be read (${why}): --max-spend cannot count, nothing ordered`,
    {
      hint: 'fix or move the file aside (what it held is then forgotten, and the ceiling starts afresh)',
    },
  );
}

/** What a change under the ledger's lock returns: the events to append, and the caller's answer. */
export interface LedgerChange<T> {
  events: SpendEvent[];
  value: T;
}

export class FileSpendLedger implements SpendLedger {
  #book = new FolderBook();
  #ino: number | undefined;
  /** How far the file has been read: the end of its last whole line. */
  #offset = 0;
  /** How far the checkpoint on disk covers the file (0: none). */
  #covers = 0;
  /** Entries forgotten whose lines the file still holds. */
  #forgotten = 0;
  #legacyDone = false;

  constructor(
    readonly path: string,
    readonly name: string,
    private readonly options: {
      legacy?: LegacyLedger;
      lock?: LockOptions;
      checkpointBytes?: number;
      /** Only to sum it (`energy state status`): read without its lock (its lines and checkpoint are written whole), never written. */
      readOnly?: boolean;
    } = {},
  ) {}

  /**
   * Runs `change` on the ledger as it stands, alone among every process writing it, and appends the events
   * it returns before the lock goes; entries no window reaches are pruned meanwhile.
   */
  async update<T>(nowMs: number, change: (book: FolderBook) => LedgerChange<T>): Promise<T> {
    return this.#alone(async () => {
      await this.#catchUp();
      await this.#takeInLegacy();
      // What the ledger held before this change bounds the prune: a run whose clock is days ahead files its
      // own entries days ahead, and they must not carry everyone else's out of the window.
      const newest = this.#book.newestMs;
      const { events, value } = change(this.#book);
      await this.#append(events);
      await this.#prune(Math.min(nowMs, newest));
      await this.#checkpointWhenDue();
      return value;
    });
  }

  async hold(request: HoldRequest): Promise<HoldDecision> {
    return this.update(request.nowMs, (book) => {
      const { events, decision } = holdInBook(book, request);
      return { events: request.dry === true ? [] : events, value: decision };
    });
  }

  async append(events: readonly SpendEvent[], nowMs: number): Promise<void> {
    await this.update(nowMs, (book) => ({ events: knownEvents(book, events), value: undefined }));
  }

  async spent(sinceMs: number): Promise<string> {
    return (await this.read()).spent(sinceMs);
  }

  async openOrders(sinceMs: number, keyId: string, atMost: number): Promise<OpenOrder[]> {
    return openOrdersInBook(await this.read(), sinceMs, keyId, atMost);
  }

  async lackingOrders(sinceMs: number, keyId: string, atMost: number): Promise<LackingOrder[]> {
    return lackingInBook(await this.read(), sinceMs, keyId, atMost);
  }

  async totals(nowMs: number): Promise<LedgerTotals> {
    return ledgerTotals(this.name, await this.read(), nowMs);
  }

  async has(ids: readonly string[]): Promise<Set<string>> {
    const book = await this.read();
    return new Set(ids.filter((id) => book.has(id)));
  }

  /** An older energy's ledger of this account, taken in once (its file then renamed). */
  async #takeInLegacy(): Promise<void> {
    if (this.options.legacy === undefined || this.#legacyDone) return;
    const { events, done } = await readLegacy(this.options.legacy);
    await this.#append(events);
    await done();
    this.#legacyDone = true;
  }

  /** The ledger as it stands: the settled entries compactly, the others whole. */
  async read(): Promise<FolderBook> {
    return this.#alone(async () => {
      await this.#catchUp();
      await this.#checkpointWhenDue();
      return this.#book;
    });
  }

  async #alone<T>(work: () => Promise<T>): Promise<T> {
    return this.options.readOnly === true ? work() : ledgerTurn(this.path, this.options.lock, work);
  }

  /**
   * Reads what was appended since the last look; when the file is new to this process (or was rewritten),
   * from its checkpoint when one describes it, else from its start.
   */
  async #catchUp(): Promise<void> {
    let file: FileHandle;
    try {
      file = await open(this.path, READ_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unreadable(this.path, describeFsError(error));
      this.#reset(undefined);
      return;
    }
    try {
      const info = await file.stat();
      if (!info.isFile()) throw unreadable(this.path, 'it is not a regular file');
      if (info.ino !== this.#ino || info.size < this.#offset) {
        this.#reset(info.ino);
        const checkpoint = await readCheckpoint(checkpointPath(this.path), this.name, file);
        if (checkpoint !== undefined) {
          this.#book = checkpoint.book;
          this.#offset = this.#covers = checkpoint.covers;
          this.#forgotten = checkpoint.forgotten;
        }
      }
      if (info.size === this.#offset) return;
      let fromStart = this.#offset === 0;
      let index = 0;
      this.#offset = await eachLine(file, this.#offset, info.size, (line) => {
        if (fromStart) {
          fromStart = false;
          const ledger = ledgerOfHeader(line);
          if (ledger !== this.name)
            throw unreadable(this.path, ledger === undefined ? 'no ledger header' : `it is ${ledger}'s`);
          return;
        }
        index += 1;
        const event = parseEventLine(line);
        if (event === undefined) throw unreadable(this.path, `line ${index} after the last read is not a ledger event`);
        this.#book.apply(event);
        // A long read (a log without its checkpoint, or a long tail) keeps only the open entries whole.
        this.#book.settleWhenDue();
      });
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw unreadable(this.path, describeFsError(error));
    } finally {
      await file.close();
    }
  }

  #reset(ino: number | undefined): void {
    this.#book = new FolderBook();
    this.#ino = ino;
    this.#offset = 0;
    this.#covers = 0;
    this.#forgotten = 0;
  }

  async #append(events: readonly SpendEvent[]): Promise<void> {
    if (events.length === 0) return;
    const { text, stored } = eventLines(events);
    const fresh = this.#ino === undefined;
    // Nothing whole read yet (a new file, or one whose first write was cut before its first line break): the
    // header goes first, over whatever is there.
    const bytes = Buffer.from(this.#offset === 0 ? headerLine(this.name) + text : text, 'utf8');
    try {
      const file = await open(this.path, fresh ? 'wx' : 'r+', PRIVATE_FILE_MODE);
      try {
        await file.write(bytes, 0, bytes.length, this.#offset);
        // Anything past what this writes is the rest of a write cut short: it goes.
        await file.truncate(this.#offset + bytes.length);
        await file.datasync();
        this.#ino = (await file.stat()).ino;
      } finally {
        await file.close();
      }
      if (fresh) await syncFolder(dirname(this.path));
    } catch (error) {
      throw new UsageError(
        `cannot write the --max-spend ledger ${this.path}: ${describeFsError(error)}: nothing ordered`,
        {
          hint: 'free space or fix the state folder (or set ENERGY_STATE_DIR to one that works)',
        },
      );
    }
    this.#offset += bytes.length;
    for (const event of stored) this.#book.apply(event);
  }

  /** Forgets what no window reaches at `nowMs`; rewrites the file without it once enough has piled up. */
  async #prune(nowMs: number): Promise<void> {
    if (this.#book.longestWindowMs === 0 || !Number.isFinite(nowMs)) return;
    const cut = nowMs - this.#book.longestWindowMs - PRUNE_SLACK_MS;
    this.#forgotten += this.#book.forget(cut);
    const settledDead = this.#book.settled.deadCount(cut);
    const live = this.#book.settled.size - settledDead + this.#book.entries.size;
    if (this.#forgotten + settledDead < Math.max(COMPACT_AT, live / 2)) return;
    this.#book.settle(cut);
    const { ino, size } = await compactLog(this.path, this.name, this.#offset, this.#book);
    this.#ino = ino;
    this.#offset = size;
    this.#forgotten = 0;
    await this.#checkpoint();
  }

  async #checkpointWhenDue(): Promise<void> {
    const due = this.#offset - this.#covers >= (this.options.checkpointBytes ?? CHECKPOINT_BYTES);
    if (this.#ino !== undefined && due && this.options.readOnly !== true) await this.#checkpoint();
  }

  /** Makes the settled entries compact and writes them down, covering the file as read. */
  async #checkpoint(): Promise<void> {
    this.#book.settle(-Infinity);
    try {
      const log = await open(this.path, READ_NONBLOCK);
      try {
        const state = { book: this.#book, covers: this.#offset, forgotten: this.#forgotten };
        await writeCheckpoint(checkpointPath(this.path), this.name, log, state);
      } finally {
        await log.close();
      }
      this.#covers = this.#offset;
    } catch {
      // The checkpoint only saves reading: without it (a full disk), the log is read further, and exact.
    }
  }
}

/** Is this file name one of the folder's spend ledgers? (`energy state import` moves them.) */
export function isLedgerFile(name: string): boolean {
  return /^spend-[0-9a-f]{16}\.ndjson$/.test(basename(name));
}
