/**
 * The order journal: one durable file per order request, written before the request leaves and moved
 * from `pending/` to `settled/` once the server has said something definite. A file per record means
 * concurrent runs never write the same file (except for the same client_request_id, where creation is
 * exclusive), a crash leaves whole records only, and "is anything unsettled?" is one small readdir.
 *
 *   <state>/journal/pending/<account>-<id>.json   sent or about to be sent, outcome unknown
 *   <state>/journal/settled/<account>-<id>.json   created, existing, refused or not sent
 *
 * `<account>` hashes the API key's id (never the base URL's spelling: key-names.ts), `<id>` the
 * client_request_id, so any id is a safe name.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { assertPrivate, describeFsError, ensurePrivateDir } from '../../config/permissions.js';
import { JournalWriteError, UnreadableRecordError } from '../../domain/journal-errors.js';
import { keyPrefix, recordFileName } from './key-names.js';
import { listJson, readFolder, readRecordFile, type UnreadableRecord } from '../../journal/read-records.js';
import { journalDir } from '../../journal/state-dir.js';
import { pruneJournal } from './journal-prune.js';
import type { JournalScope, OrderJournal } from '../../journal/order-journal.js';
import { hasOrder, orderBody, type JournalRecord, type Outcome, type OutcomeInput } from '../../journal/record.js';
import { serverNowMs } from '../../domain/server-now.js';

/** How far a settled file's time (the host clock's) may sit before its record's stamp (the server's). */
const MTIME_SLACK_MS = 3_600_000;

/** The order journal in the local state folder. */
export class Journal implements OrderJournal {
  readonly #root: string;
  readonly #scopePrefix: string;
  #foldersReady = false;

  constructor(
    stateDir: string,
    readonly scope: JournalScope,
    /** Stamps records (journaled_at, an outcome's at): the process's server clock (issue 44). */
    private readonly nowMs: () => number = serverNowMs,
  ) {
    this.#root = journalDir(stateDir);
    // Checked on every run that opens the journal, not only when an order is about to be written.
    assertPrivate(this.#root, 'folder', 'state');
    this.#scopePrefix = keyPrefix(scope.keyId);
  }

  get folder(): string {
    return this.#root;
  }

  get where(): string {
    return this.#root;
  }

  /** The record for this id in this scope: the pending one if any, else the settled one. */
  find(clientRequestId: string): JournalRecord | undefined {
    return this.#read('pending', clientRequestId) ?? this.#read('settled', clientRequestId);
  }

  /**
   * Writes the record of a request about to be sent, durably, before it is sent. When another run has
   * already journaled the same id (pending, or settled with an order), that record is returned instead
   * (`fresh` false): its bytes are the ones to send, so that both runs ask for one order.
   */
  async begin(clientRequestId: string, body: string): Promise<{ record: JournalRecord; fresh: boolean }> {
    const earlier = this.#withOrder(clientRequestId);
    if (earlier !== undefined) return { record: earlier, fresh: false };
    const record: JournalRecord = {
      version: 1,
      origin: this.scope.origin,
      key_id: this.scope.keyId,
      client_request_id: clientRequestId,
      body,
      journaled_at: new Date(this.nowMs()).toISOString(),
      last_error: null,
      outcome: null,
    };
    this.#ensureFolders();
    const { removeQuietly, writeDurably } = await durableFiles();
    const pendingPath = this.#path('pending', clientRequestId);
    let written: boolean;
    try {
      written = await writeDurably(pendingPath, serialise(record), { exclusive: true });
    } catch (error) {
      throw new JournalWriteError(
        `cannot write the order journal in ${this.#root}: ${describeFsError(error)}: nothing was sent`,
        {
          hint: 'free space or fix the state folder (or set ENERGY_STATE_DIR to one that works), then run the command again',
        },
      );
    }
    if (!written) {
      const other = this.find(clientRequestId);
      if (other === undefined) {
        const reason = this.unreadableFor(clientRequestId)?.reason ?? 'it changed while being read';
        throw new UnreadableRecordError(clientRequestId, pendingPath, reason);
      }
      return { record: other, fresh: false };
    }
    // Another run may have settled this id between the check above and our claim: its order wins.
    const settledMeanwhile = this.#withOrder(clientRequestId);
    if (settledMeanwhile !== undefined) {
      await removeQuietly(pendingPath);
      return { record: settledMeanwhile, fresh: false };
    }
    return { record, fresh: true };
  }

  #withOrder(clientRequestId: string): JournalRecord | undefined {
    const settled = this.#read('settled', clientRequestId);
    return settled !== undefined && hasOrder(settled) ? settled : undefined;
  }

  /** Notes why the outcome is still unknown; the record stays pending (with its older note if this write fails). */
  async markUncertain(record: JournalRecord, reason: string): Promise<JournalRecord> {
    const updated = { ...record, last_error: reason };
    const path = this.#path('pending', record.client_request_id);
    const { writeDurably } = await durableFiles();
    try {
      if (this.#read('pending', record.client_request_id) !== undefined) await writeDurably(path, serialise(updated));
    } catch {
      // Only a note: the record is pending either way, and the failure being reported matters more.
    }
    return updated;
  }

  /** Records the server's definite answer and takes the record out of the pending list. */
  async settle(record: JournalRecord, outcome: OutcomeInput): Promise<JournalRecord> {
    const settled = { ...record, outcome: { ...outcome, at: new Date(this.nowMs()).toISOString() } as Outcome };
    this.#ensureFolders();
    const { removeQuietly, writeDurably } = await durableFiles();
    // The settled file's bytes are fsync'd; its name and the pending file's removal are not: a crash can
    // only undo them together (metadata is journaled in order), leaving the record pending again, and
    // settling it again (a resend) is harmless. This keeps an order at three fsyncs instead of five.
    try {
      await writeDurably(this.#path('settled', record.client_request_id), serialise(settled), { syncFolder: false });
    } catch (error) {
      // The record stays pending: `order recover` settles it later, by resending its bytes (no second order).
      throw new JournalWriteError(
        `cannot record the outcome in the order journal in ${this.#root}: ${describeFsError(error)}`,
      );
    }
    await removeQuietly(this.#path('pending', record.client_request_id));
    return settled;
  }

  /** Pending records of this scope, oldest first; for `addresses` only when given. */
  pending(addresses?: readonly string[]): JournalRecord[] {
    const only = addresses === undefined ? undefined : new Set(addresses);
    return this.allPending().filter((record) => this.#inScope(record) && forAddresses(record, only));
  }

  /**
   * Settled records of this scope that have an order, journaled at `sinceMs` or later: this machine's
   * orders, to follow by id when the order list does not reach them. Files settled earlier are not read.
   */
  ordered(sinceMs: number, addresses?: readonly string[]): JournalRecord[] {
    const only = addresses === undefined ? undefined : new Set(addresses);
    const folder = join(this.#root, 'settled');
    return listJson(folder).flatMap((name) => {
      if (!name.startsWith(`${this.#scopePrefix}-`)) return [];
      const path = join(folder, name);
      try {
        // Only a quick skip by the file's time (the host's clock, which may be off or have stepped): an
        // hour of slack, the record's own server-time stamp decides below.
        if (statSync(path).mtimeMs < sinceMs - (serverNowMs() - Date.now()) - MTIME_SLACK_MS) return [];
      } catch {
        return [];
      }
      const record = readRecord(path);
      const wanted = record !== undefined && hasOrder(record) && forAddresses(record, only);
      return wanted && Date.parse(record.journaled_at) >= sinceMs ? [record] : [];
    });
  }

  /** Pending records of every API and key used from this machine, oldest first. */
  allPending(): JournalRecord[] {
    return readFolder(join(this.#root, 'pending')).records;
  }

  /** The pending file of this id when it exists but cannot be read. */
  unreadableFor(clientRequestId: string): UnreadableRecord | undefined {
    const found = readRecordFile(this.#path('pending', clientRequestId));
    return found !== undefined && 'unreadable' in found ? found.unreadable : undefined;
  }

  /** Pending files of this scope that cannot be read: each may stand for an order, so they are reported. */
  unreadablePending(): UnreadableRecord[] {
    return readFolder(join(this.#root, 'pending'), `${this.#scopePrefix}-`).unreadable;
  }

  /** True when the record was sent to this journal's API with its key: it can be settled from here. */
  covers(record: JournalRecord): boolean {
    return this.#inScope(record);
  }

  /** How many pending records this scope has, not counting `exceptId`: a readdir, no file is opened. */
  pendingCount(exceptId?: string): number {
    const skip = exceptId === undefined ? undefined : this.#fileName(exceptId);
    return listJson(join(this.#root, 'pending')).filter(
      (name) => name.startsWith(`${this.#scopePrefix}-`) && name !== skip,
    ).length;
  }

  /** Removes settled records past the retention period, at most once a day (journal-prune.ts). */
  prune(): Promise<number> {
    return pruneJournal(this.#root, () => this.#ensureFolders());
  }

  /** One account per API key, whatever the URL's spelling when the record was written. */
  #inScope(record: JournalRecord): boolean {
    return record.key_id === this.scope.keyId;
  }

  #read(state: 'pending' | 'settled', clientRequestId: string): JournalRecord | undefined {
    const record = readRecord(this.#path(state, clientRequestId));
    // A hash collision or a hand-edited file must not pass as this id's record.
    return record !== undefined && record.client_request_id === clientRequestId && this.#inScope(record)
      ? record
      : undefined;
  }

  #path(state: 'pending' | 'settled', clientRequestId: string): string {
    return join(this.#root, state, this.#fileName(clientRequestId));
  }

  #fileName(clientRequestId: string): string {
    return recordFileName(this.scope.keyId, clientRequestId);
  }

  #ensureFolders(): void {
    if (this.#foldersReady) return;
    for (const folder of [this.#root, join(this.#root, 'pending'), join(this.#root, 'settled')])
      ensurePrivateDir(folder, 'state');
    this.#foldersReady = true;
  }
}

/** Pending records in the journal folder of `stateDir`, whatever their API and key (oldest first), and the files that cannot be read. */
export function pendingRecordsIn(stateDir: string): { records: JournalRecord[]; unreadable: UnreadableRecord[] } {
  assertPrivate(journalDir(stateDir), 'folder', 'state');
  return readFolder(join(journalDir(stateDir), 'pending'));
}

/**
 * Writing is loaded on first write: `order get` and `order list` only count pending records, and should
 * not load node:fs/promises for that.
 */
function durableFiles(): Promise<typeof import('../../storage/durable-file.js')> {
  return import('../../storage/durable-file.js');
}

/** The record is for one of `addresses` (any, when none are given). */
function forAddresses(record: JournalRecord, addresses: ReadonlySet<string> | undefined): boolean {
  return addresses === undefined || addresses.has(orderBody(record.body)?.address ?? '');
}

function serialise(record: JournalRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

function readRecord(path: string): JournalRecord | undefined {
  const result = readRecordFile(path);
  return result !== undefined && 'record' in result ? result.record : undefined;
}
