/**
 * doctor's checks of a shared state store (ENERGY_STATE_URL): reachable, writable (a write tried in a
 * transaction rolled back, so that a read-only role or a standby fails here rather than at the first order),
 * its schema's version, one round trip's time; then the pending records of every host sharing it, and those
 * this host's folder holds that the store does not (moving in: this host orders nothing until they are
 * imported). The URL is shown with its password redacted.
 */
import { ExitCode } from '../domain/errors.js';
import { formatIsoTime } from '../output/format.js';
import type { StateStore } from '../state/state-store.js';
import { ok, warn, type CheckResult } from './check.js';
import { stalePendingNote } from './stale-pending.js';

export async function checkStateStore(open: () => Promise<StateStore>): Promise<CheckResult> {
  const store = await open();
  const { schemaVersion, latencyMs } = await store.health();
  return ok(
    'state',
    `${store.where}: reachable, writable, schema version ${schemaVersion ?? '-'}, ${latencyMs.toFixed(1)} ms a round trip`,
  );
}

export async function checkSharedJournal(
  open: () => Promise<StateStore>,
  orderCommand: (verb: string) => string,
  stateDir: string,
): Promise<CheckResult> {
  const store = await open();
  const { leftBehind, leftBehindSummary, IMPORT_HINT } = await import('../state/moving-in.js');
  const left = leftBehindSummary(await leftBehind(store, stateDir));
  if (left !== undefined)
    return { name: 'journal', status: 'fail', detail: left, hint: IMPORT_HINT, exitCode: ExitCode.conflict };
  const { records } = await store.allPending();
  if (records.length === 0) return ok('journal', 'no unsettled order requests from any host sharing the state store');
  const requests = records.length === 1 ? '1 order request' : `${records.length} order requests`;
  return warn(
    'journal',
    `${requests} sent from the hosts sharing the state store never got an answer (oldest ${formatIsoTime(records[0]!.journaled_at)})${stalePendingNote(records, orderCommand)}`,
    `see \`${orderCommand('pending')}\`, settle with \`${orderCommand('recover')}\` before ordering again`,
  );
}
