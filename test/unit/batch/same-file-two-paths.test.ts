/**
 * A batch file is the same batch however its path is written (`orders.csv`, `./orders.csv`, `/dir/orders.csv`):
 * its lines' ids come from the file's name and lines, so a second run by another path gets the first run's
 * orders back instead of buying every line again. Through runBatch with a fake API and one journal.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBatch } from '../../../src/batch/run-batch.js';
import { freshAddress } from '../../helpers/e2e.js';
import { batchDeps } from '../../helpers/flow-deps.js';
import { MemoryJournal } from '../../helpers/memory-journal.js';
import { FakeClient } from '../ordering/fakes.js';

const [A, B] = [1, 2].map((n) => freshAddress(71_100 + n)) as [string, string];
const dir = mkdtempSync(join(tmpdir(), 'energy-batch-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runOn(file: string, client: FakeClient, journal: MemoryJournal): Promise<void> {
  return runBatch(batchDeps(client, journal, dir, file), {
    file,
    format: undefined,
    concurrency: 2,
    yes: true,
    maxTotal: undefined,
    dryRun: false,
    placeWhatFits: false,
  });
}

const idsPosted = (client: FakeClient) =>
  new Set(client.posted.map((body) => (JSON.parse(body) as { client_request_id: string }).client_request_id));

describe('one file by two paths', () => {
  it('run again through another spelling of its path: no line is bought twice', async () => {
    mkdirSync(join(dir, 'sub'));
    const file = join(dir, 'orders.csv');
    writeFileSync(file, `address,energy,hours\n${A},65000,1\n${B},65000,1\n`);
    const client = new FakeClient();
    const journal = new MemoryJournal();
    await runOn(file, client, journal);
    expect(client.posted).toHaveLength(2);
    const first = idsPosted(client);
    // Written as typed, not normalized (path.join would drop the `..`).
    await runOn(`${dir}/sub/../orders.csv`, client, journal);
    expect(idsPosted(client)).toEqual(first);
    expect(idsPosted(client).size).toBe(2);
  });
});
