/** Order flows' dependencies for unit tests: the ordering flows' and the batch's, around fakes. */
import { PassThrough } from 'node:stream';
import type { BatchDeps } from '../../src/batch/run-batch.js';
import type { EnergyClient } from '../../src/client/client.js';
import type { Journal } from '../../src/state/folder/journal.js';

/**
 * What an order flow of src/ordering/ (createOrder, recoverRecords) takes around a fake client and a journal:
 * nobody to ask, `energy order recover <id>` as the recovery command, and its notes kept to look at.
 */
export function flowDeps<C, J>(client: C, journal: J) {
  const notes: string[] = [];
  const deps = {
    client,
    journal,
    confirm: undefined,
    note: (line: string) => notes.push(line),
    recoverCommand: (id: string) => `energy order recover ${id}`,
  };
  return { deps, notes };
}

/** The same, with what createOrder asks besides: no quote details, and `new-id` for a fresh request. */
export function createFlowDeps<C, J>(client: C, journal: J) {
  const { deps, notes } = flowDeps(client, journal);
  return { deps: { ...deps, quoteDetails: () => [], newRequestId: () => 'new-id' }, notes };
}

/**
 * What runBatch takes around a fake client and a journal, nobody to ask and nothing on stdin: its spool in
 * `dir`, its notes and results to `note` and `onResult` (dropped where not given).
 */
export function batchDeps(
  client: unknown,
  journal: unknown,
  dir: string,
  file: string,
  seen: Partial<Pick<BatchDeps, 'note' | 'onResult'>> = {},
): BatchDeps {
  return {
    client: client as EnergyClient,
    journal: journal as Journal,
    confirm: undefined,
    stdin: new PassThrough(),
    spoolDir: dir,
    interrupt: undefined,
    note: seen.note ?? (() => {}),
    receiverNode: async () => undefined,
    progress: () => {},
    onResult: seen.onResult ?? (async () => {}),
    onPlannedLine: async () => {},
    flush: async () => {},
    recoverCommand: (id) => `energy order recover ${id}`,
    rerunCommand: `energy order batch ${file} --yes`,
  };
}
