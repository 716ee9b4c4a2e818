/**
 * The spend ledger of an older energy: one JSON file per base URL and key id (`spend-<hash>.json`), its
 * entries filed at the orders' `created_at`. Taken into the account's ledger once, the first time a run
 * of that base URL and key uses it, so that an upgrade does not lift a ceiling reached before; then the
 * old file is renamed `….imported`. Its entries keep the times they had (the best there is for them).
 */
import { createHash } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { readRegularFileText } from '../../storage/bounded-read.js';
import { join } from 'node:path';
import { describeFsError } from '../../config/permissions.js';
import { UsageError } from '../../domain/errors.js';
import type { SpendEvent } from '../../journal/spend-ledger.js';

export interface LegacyLedger {
  path: string;
  keyId: string;
  origin: string;
}

interface OldEntry {
  order_id: string;
  address: string;
  total_trx: string;
  at_ms: number;
  state: 'placed' | 'kept' | 'refunded';
}

/** Where an older energy kept the ledger of this base URL and key. */
export function legacyLedger(journalFolder: string, scope: { origin: string; keyId: string }): LegacyLedger {
  const hash = createHash('sha256').update(`${scope.origin}\n${scope.keyId}`, 'utf8').digest('hex').slice(0, 16);
  return { path: join(journalFolder, `spend-${hash}.json`), ...scope };
}

function isOldEntry(value: unknown): value is OldEntry {
  const entry = value as OldEntry;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.order_id === 'string' &&
    typeof entry.address === 'string' &&
    /^\d+\.\d{6}$/.test(entry.total_trx) &&
    Number.isSafeInteger(entry.at_ms) &&
    ['placed', 'kept', 'refunded'].includes(entry.state)
  );
}

/** The old file's entries as events, and what to call once they are appended (none: no old file). */
export async function readLegacy(legacy: LegacyLedger): Promise<{ events: SpendEvent[]; done: () => Promise<void> }> {
  let text: string;
  try {
    text = await readRegularFileText(legacy.path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], done: async () => undefined };
    throw oldUnreadable(legacy.path, describeFsError(error));
  }
  let entries: unknown;
  try {
    entries = (JSON.parse(text) as { entries?: unknown }).entries;
  } catch {
    entries = undefined;
  }
  if (!Array.isArray(entries) || !entries.every(isOldEntry)) throw oldUnreadable(legacy.path, 'not a ledger');
  const events = (entries as OldEntry[]).flatMap((entry): SpendEvent[] => {
    const id = `v1 ${entry.order_id}`;
    const { address, total_trx, at_ms } = entry;
    return [
      { kind: 'hold', id, holder: 'v1', address, total_trx, at_ms, key_id: legacy.keyId, origin: legacy.origin },
      { kind: 'order', id, order_id: entry.order_id, address, total_trx, at_ms },
      ...(entry.state === 'placed' ? [] : [{ kind: 'final' as const, id, state: entry.state, at_ms, note: null }]),
    ];
  });
  return { events, done: () => rename(legacy.path, `${legacy.path}.imported`) };
}

function oldUnreadable(path: string, why: string): UsageError {
  return new UsageError(
    `the --max-spend ledger ${path} (of an older energy) cannot be read (${why}): nothing ordered`,
    {
      hint: 'fix or move the file aside (what it held is then forgotten)',
    },
  );
}
