/**
 * The spend ledger in the state folder: one JSON file per API account (base URL and key id, hashed), next
 * to the journal (`<state>/journal/spend-<scope>.json`, 0600, in the journal's 0700 folder), rewritten whole
 * and durably (a temporary file, fsync, rename): a crash leaves the old ledger or the new one, never half.
 * Writers are `ensure` runs inside the ensure lock, so one at a time per machine.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../domain/errors.js';
import { writeDurably } from '../storage/durable-file.js';
import { PRIVATE_FILE_MODE } from '../storage/file-modes.js';
import type { SpendEntry, SpendLedger } from './spend-ledger.js';

const STATES = new Set(['placed', 'kept', 'refunded']);

function isEntry(value: unknown): value is SpendEntry {
  const entry = value as SpendEntry;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.order_id === 'string' &&
    typeof entry.address === 'string' &&
    typeof entry.total_trx === 'string' &&
    /^\d+\.\d{6}$/.test(entry.total_trx) &&
    Number.isSafeInteger(entry.at_ms) &&
    STATES.has(entry.state)
  );
}

/** The ledger's file for an account: in the journal's folder, named by a hash of the base URL and key id. */
export function spendLedgerPath(journalFolder: string, scope: { origin: string; keyId: string }): string {
  const hash = createHash('sha256').update(`${scope.origin}\n${scope.keyId}`, 'utf8').digest('hex').slice(0, 16);
  return join(journalFolder, `spend-${hash}.json`);
}

export class FileSpendLedger implements SpendLedger {
  constructor(readonly path: string) {}

  async read(sinceMs: number): Promise<SpendEntry[]> {
    return (await this.#load()).filter((entry) => entry.at_ms >= sinceMs).sort((a, b) => a.at_ms - b.at_ms);
  }

  async record(entry: Omit<SpendEntry, 'state'>): Promise<void> {
    const entries = await this.#load();
    if (entries.some((known) => known.order_id === entry.order_id)) return;
    await this.#save([...entries, { ...entry, state: 'placed' }]);
  }

  async settle(orderId: string, state: 'kept' | 'refunded'): Promise<void> {
    const entries = await this.#load();
    const entry = entries.find((known) => known.order_id === orderId);
    if (entry === undefined || entry.state === state) return;
    entry.state = state;
    await this.#save(entries);
  }

  async forget(beforeMs: number): Promise<void> {
    const entries = await this.#load();
    const kept = entries.filter((entry) => entry.at_ms >= beforeMs);
    if (kept.length < entries.length) await this.#save(kept);
  }

  /**
   * The entries on file; none when there is no file yet. A file that is not a ledger is an error, never read
   * as empty: an empty ledger would let a service spend its whole ceiling again.
   */
  async #load(): Promise<SpendEntry[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let parsed: { entries?: unknown } | undefined;
    try {
      parsed = JSON.parse(text) as { entries?: unknown };
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed?.entries) || !parsed.entries.every(isEntry)) {
      throw new UsageError(`${this.path} is not a spend ledger that can be read: --max-spend cannot count`, {
        hint: 'move the file aside to start the ceiling afresh (what it held is then forgotten)',
      });
    }
    return parsed.entries as SpendEntry[];
  }

  async #save(entries: readonly SpendEntry[]): Promise<void> {
    await writeDurably(this.path, `${JSON.stringify({ version: 1, entries }, null, 1)}\n`, {
      mode: PRIVATE_FILE_MODE,
    });
  }
}
