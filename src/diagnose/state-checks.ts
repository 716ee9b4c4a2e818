/**
 * doctor's checks of a shared state store (ENERGY_STATE_URL): reachable, its schema's version, one round
 * trip's time, and the pending records of every host sharing it. The URL is shown with its password redacted.
 */
import { formatIsoTime } from '../output/format.js';
import type { StateStore } from '../state/state-store.js';
import { ok, warn, type CheckResult } from './check.js';

export async function checkStateStore(open: () => Promise<StateStore>): Promise<CheckResult> {
  const store = await open();
  const { schemaVersion, latencyMs } = await store.health();
  return ok(
    'state',
    `${store.where}: reachable, schema version ${schemaVersion ?? '-'}, ${latencyMs.toFixed(1)} ms a round trip`,
  );
}

export async function checkSharedJournal(
  open: () => Promise<StateStore>,
  orderCommand: (verb: string) => string,
): Promise<CheckResult> {
  const { records } = await (await open()).allPending();
  if (records.length === 0) return ok('journal', 'no unsettled order requests from any host sharing the state store');
  const requests = records.length === 1 ? '1 order request' : `${records.length} order requests`;
  return warn(
    'journal',
    `${requests} sent from the hosts sharing the state store never got an answer (oldest ${formatIsoTime(records[0]!.journaled_at)})`,
    `see \`${orderCommand('pending')}\`, settle with \`${orderCommand('recover')}\` before ordering again`,
  );
}
