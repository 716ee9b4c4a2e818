/**
 * The spend ledger in the state folder: an append-only log, `<state>/journal/spend-<hash of its name>.ndjson`
 * (0600, in the journal's 0700 folder), its header naming the ledger, then one event a line
 * (spend-ledger-lines.ts). Every read and write is under the ledger's own lock file (`….lock`, the state
 * folder's O_EXCL lock: one holder among every process of the machine, and of machines sharing the folder),
 * and in a process one at a time: a change reads what others appended since its last look (the file's
 * tail), decides, appends its lines in one write at the end it read up to, and fsyncs before the lock goes.
 * An event is never rewritten; entries no ceiling can reach (older than the longest window used on the
 * ledger) are dropped by a rewrite of the whole file (a temporary file, fsync, rename), under the lock.
 */
import { createHash } from 'node:crypto';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { describeFsError, ensurePrivateDir } from '../config/permissions.js';
import { ConflictError } from '../domain/cli-errors.js';
import { UsageError } from '../domain/errors.js';
import { READ_NONBLOCK } from '../storage/bounded-read.js';
import { syncFolder, writeDurably } from '../storage/durable-file.js';
import { LockTimeoutError, withFileLock, type LockOptions } from '../storage/file-lock.js';
import { PRIVATE_FILE_MODE } from '../storage/file-modes.js';
import { SpendBook } from './spend-book.js';
import { holdInBook, knownEvents, lackingInBook, openOrdersInBook } from './spend-book-queries.js';
import {
  PRUNE_SLACK_MS,
  type HoldDecision,
  type HoldRequest,
  type LackingOrder,
  type OpenOrder,
  type SpendEvent,
  type SpendLedger,
} from './spend-ledger.js';
import { ledgerTotals, type LedgerTotals } from './spend-totals.js';
import { eventLines, headerLine, ledgerOfHeader, parseEventLine } from './spend-ledger-lines.js';
import { readLegacy, type LegacyLedger } from './spend-ledger-v1.js';

/** Entries dropped from memory before the file is rewritten without them: at least this many, and half the rest. */
const COMPACT_AT = 100;

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

/** In this process, one change at a time per ledger file (the lock file then keeps other processes out). */
const queues = new Map<string, Promise<unknown>>();

/** What a change under the ledger's lock returns: the events to append, and the caller's answer. */
export interface LedgerChange<T> {
  events: SpendEvent[];
  value: T;
}

export class FileSpendLedger implements SpendLedger {
  #book = new SpendBook();
  #ino: number | undefined;
  /** How far the file has been read: the end of its last whole line. */
  #offset = 0;
  /** Entries forgotten in memory whose lines the file still holds. */
  readonly #dead = new Set<string>();
  #legacyDone = false;

  constructor(
    readonly path: string,
    readonly name: string,
    private readonly options: { legacy?: LegacyLedger; lock?: LockOptions } = {},
  ) {}

  /**
   * Runs `change` on the ledger as it stands, alone among every process writing it, and appends the events
   * it returns before the lock goes; entries no window reaches are pruned meanwhile.
   */
  async update<T>(nowMs: number, change: (book: SpendBook) => LedgerChange<T>): Promise<T> {
    return this.#alone(async () => {
      await this.#catchUp();
      await this.#takeInLegacy();
      // What the ledger held before this change bounds the prune: a run whose clock is days ahead files its
      // own entries days ahead, and they must not carry everyone else's out of the window.
      const newest = this.#book.newestMs;
      const { events, value } = change(this.#book);
      await this.#append(events);
      await this.#prune(Math.min(nowMs, newest));
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
    const { entries } = await this.read();
    return new Set(ids.filter((id) => entries.has(id)));
  }

  /** An older energy's ledger of this account, taken in once (its file then renamed). */
  async #takeInLegacy(): Promise<void> {
    if (this.options.legacy === undefined || this.#legacyDone) return;
    const { events, done } = await readLegacy(this.options.legacy);
    await this.#append(events);
    await done();
    this.#legacyDone = true;
  }

  async read(): Promise<SpendBook> {
    return this.#alone(async () => {
      await this.#catchUp();
      return this.#book;
    });
  }

  async #alone<T>(work: () => Promise<T>): Promise<T> {
    // One turn per file, however its path is spelt: the lock file alone cannot tell two holders of one process apart.
    const key = resolve(this.path);
    const before = queues.get(key) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(() => this.#locked(work));
    queues.set(key, mine);
    try {
      return await mine;
    } finally {
      if (queues.get(key) === mine) queues.delete(key);
    }
  }

  async #locked<T>(work: () => Promise<T>): Promise<T> {
    try {
      ensurePrivateDir(dirname(this.path), 'state');
      return await withFileLock(`${this.path}.lock`, work, { timeoutMs: 30_000, ...this.options.lock });
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      throw new ConflictError(
        `the --max-spend ledger ${this.path} has been locked for 30 s (${error.message}): nothing ordered`,
        {
          hint: 'another energy is stuck holding it; a lock left by a process that died is taken over at once',
        },
      );
    }
  }

  /** Reads what was appended since the last look (all of it when the file is new, or was rewritten). */
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
      if (info.ino !== this.#ino || info.size < this.#offset) this.#reset(info.ino);
      if (info.size === this.#offset) return;
      const bytes = Buffer.alloc(info.size - this.#offset);
      let got = 0;
      while (got < bytes.length) {
        const { bytesRead } = await file.read(bytes, got, bytes.length - got, this.#offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      // A last line without its line break is a write cut short (a crash): it placed nothing, and is overwritten.
      const end = bytes.subarray(0, got).lastIndexOf(0x0a) + 1;
      this.#take(bytes.subarray(0, end).toString('utf8'), this.#offset === 0);
      this.#offset += end;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw unreadable(this.path, describeFsError(error));
    } finally {
      await file.close();
    }
  }

  #take(text: string, fromStart: boolean): void {
    const lines = text.split('\n').slice(0, -1);
    if (fromStart && lines.length > 0) {
      const ledger = ledgerOfHeader(lines.shift()!);
      if (ledger !== this.name)
        throw unreadable(this.path, ledger === undefined ? 'no ledger header' : `it is ${ledger}'s`);
    }
    for (const [index, line] of lines.entries()) {
      const event = parseEventLine(line);
      if (event === undefined)
        throw unreadable(this.path, `line ${index + 1} after the last read is not a ledger event`);
      this.#book.apply(event);
      if (event.kind !== 'window') this.#dead.delete(event.id);
    }
  }

  #reset(ino: number | undefined): void {
    this.#book = new SpendBook();
    this.#ino = ino;
    this.#offset = 0;
    this.#dead.clear();
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
    for (const event of stored) {
      this.#book.apply(event);
      if (event.kind !== 'window') this.#dead.delete(event.id);
    }
  }

  /** Forgets what no window reaches at `nowMs`; rewrites the file without it once enough has piled up. */
  async #prune(nowMs: number): Promise<void> {
    if (this.#book.longestWindowMs === 0 || !Number.isFinite(nowMs)) return;
    const ids = this.#book.prunable(nowMs - this.#book.longestWindowMs - PRUNE_SLACK_MS);
    this.#book.forget(ids);
    for (const id of ids) this.#dead.add(id);
    if (this.#dead.size < Math.max(COMPACT_AT, this.#book.entries.size / 2)) return;
    const lines = (await readFile(this.path, 'utf8')).slice(0, this.#offset).split('\n').slice(1, -1);
    const kept = lines.filter((line) => {
      const event = parseEventLine(line);
      return event !== undefined && event.kind !== 'window' && !this.#dead.has(event.id);
    });
    const window = eventLines([{ kind: 'window', window_ms: this.#book.longestWindowMs }]).text;
    const text = headerLine(this.name) + window + kept.map((line) => `${line}\n`).join('');
    await writeDurably(this.path, text, { mode: PRIVATE_FILE_MODE });
    const info = await open(this.path, READ_NONBLOCK).then(async (file) => {
      try {
        return await file.stat();
      } finally {
        await file.close();
      }
    });
    this.#ino = info.ino;
    this.#offset = Buffer.byteLength(text, 'utf8');
    this.#dead.clear();
  }
}

/** Is this file name one of the folder's spend ledgers? (`energy state import` moves them.) */
export function isLedgerFile(name: string): boolean {
  return /^spend-[0-9a-f]{16}\.ndjson$/.test(basename(name));
}
