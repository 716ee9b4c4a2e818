/**
 * batch/run-batch: what a batch sends (counted at a fake API) when a quote says the balance cannot pay, when
 * a fixed client_request_id comes back with other parameters, and with --place-what-fits.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LineResult } from '../../../src/batch/execute.js';
import { runBatch, type BatchRequest } from '../../../src/batch/run-batch.js';
import { orderRequestBody } from '../../../src/client/client.js';
import { ApiError, CliError, ExitCode } from '../../../src/domain/errors.js';
import { freshAddress } from '../../helpers/e2e.js';
import { batchDeps } from '../../helpers/flow-deps.js';
import { MemoryJournal, journalRecord } from '../../helpers/memory-journal.js';
import { FakeClient } from '../ordering/fakes.js';

const [ADDRESS, OTHER, THIRD] = [1, 2, 3].map((n) => freshAddress(71_000 + n)) as [string, string, string];
const dir = mkdtempSync(join(tmpdir(), 'energy-batch-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function runOn(text: string, client: FakeClient, journal = new MemoryJournal(), request: Partial<BatchRequest> = {}) {
  const file = join(dir, `orders-${(files += 1)}.csv`);
  writeFileSync(file, text);
  const results: LineResult[] = [];
  const notes: string[] = [];
  const run = runBatch(
    batchDeps(client, journal, dir, file, {
      note: (line) => notes.push(line),
      onResult: async (result) => void results.push(result),
    }),
    {
      file,
      format: undefined,
      concurrency: 4,
      yes: true,
      maxTotal: undefined,
      dryRun: false,
      placeWhatFits: false,
      ...request,
    },
  );
  return { run, results, notes };
}

const exitsWith = (code: number) => (error: unknown) => error instanceof CliError && error.exitCode === code;

describe('runBatch', () => {
  it('refuses the whole batch (exit 5, nothing sent) when a quote says can_afford: false, whatever the balance says', async () => {
    const client = new FakeClient({ canAfford: false, available: '1000.000000' });
    const { run } = runOn(`address,energy,hours\n${ADDRESS},65000,1\n${OTHER},65000,1\n`, client);
    await expect(run).rejects.toSatisfy(exitsWith(ExitCode.conflict));
    expect(client.posted).toEqual([]);
  });

  it.each([
    ['energy', `${ADDRESS},66000,1,fixed-1`],
    ['hours', `${ADDRESS},65000,3,fixed-1`],
    ['address', `${OTHER},65000,1,fixed-1`],
  ])(
    'refuses a fixed client_request_id this machine used with another %s: exit 5 naming the line, nothing quoted or sent',
    async (_what, line) => {
      const client = new FakeClient({ hours: [1, 3] });
      const journal = new MemoryJournal();
      const body = orderRequestBody({
        client_request_id: 'fixed-1',
        address: ADDRESS,
        energy: 65000,
        duration_hours: 1,
        expected_total_trx: '3.700000',
      });
      journal.records.set(
        'fixed-1',
        journalRecord('fixed-1', body, { kind: 'created', at: '2026-11-23T09:00:01.000Z', order_id: 'order-1' }),
      );
      const { run } = runOn(`address,energy,hours,client_request_id\n${line}\n`, client, journal);
      await expect(run).rejects.toSatisfy(exitsWith(ExitCode.conflict));
      await expect(run).rejects.toThrow(
        new RegExp(
          String.raw`orders-\d+\.csv, line 2: client_request_id fixed-1 was already used from this machine for ${ADDRESS}, 65,000 energy, 1 h: nothing was sent`,
        ),
      );
      expect(client.quotes).toEqual([]);
      expect(client.posted).toEqual([]);
    },
  );

  it("names the line of a refused quote, going on after the server's full stop without keeping it", async () => {
    const refused = new ApiError(400, 'POST /v1/energy/quotes failed: VALIDATION_ERROR: Address is frozen.', undefined);
    const client = new FakeClient({ quoteError: refused });
    const { run } = runOn(`address,energy,hours\n${ADDRESS},65000,1\n`, client);
    await expect(run).rejects.toThrow(
      /orders-\d+\.csv, line 2: POST \/v1\/energy\/quotes failed: VALIDATION_ERROR: Address is frozen: nothing was bought$/,
    );
    expect(client.posted).toEqual([]);
  });

  it('--place-what-fits sends, in the order given, only the lines the balance covers; the others fail unsent (exit 9)', async () => {
    const client = new FakeClient({ totalTrx: '3.700000', available: '8.000000' });
    const { run, results } = runOn(
      `address,energy,hours\n${ADDRESS},65000,1\n${OTHER},65000,1\n${THIRD},65000,1\n`,
      client,
      new MemoryJournal(),
      { placeWhatFits: true, concurrency: 3 },
    );
    await expect(run).rejects.toSatisfy(exitsWith(ExitCode.someFailed));
    expect(client.posted.map((body) => (JSON.parse(body) as { address: string }).address).sort()).toEqual(
      [ADDRESS, OTHER].sort(),
    );
    expect(client.balanceRead).toBe(1);
    const byLine = [...results].sort((a, b) => a.line - b.line);
    expect(byLine.map((result) => result.status)).toEqual(['created', 'created', 'failed']);
    expect(byLine[2]!.error?.message).toBe(
      '3.700000 TRX is more than the balance has left after the lines before it (8.000000 TRX available): not ordered',
    );
  });
});
