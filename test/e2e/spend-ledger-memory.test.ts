/**
 * What a process holds of a folder --max-spend ledger does not grow with the log: beside 100,000 settled orders
 * (a log the test writes), a process deciding a hold keeps whole only the entries that can still change, the
 * settled ones compactly, whether it reads the whole log (no checkpoint yet, as after an upgrade) or its
 * checkpoint and tail. The process is the ledger's own module, bundled here with esbuild, run with --expose-gc
 * so that its heap is measured after a collection (the typed arrays' bytes are counted as the book holds them:
 * `arrayBuffers` includes freed ones until V8 sweeps them). No timing is asserted.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetLedger } from '../../src/journal/spend-ledger.js';
import { spendLedgerPath } from '../../src/state/folder/spend-ledger-file.js';
import { holdLine, orderLine, settledOrders, windowLine, writeSpendLog } from '../helpers/spend-log.js';
import { bundleProgram } from '../helpers/bundled-program.js';

const HOUR = 3_600_000;
const T = Date.UTC(2026, 11, 7, 12);
const MiB = 1024 * 1024;

/** Holds 1.000000 on a new id at T under a day's ceiling, reads the ledger; prints what it holds and its heap. */
const DECIDER = `
import { FileSpendLedger } from './src/state/folder/spend-ledger-file.ts';

async function main() {
  const [path, name, now, id] = process.argv.slice(2);
  const ledger = new FileSpendLedger(path, name);
  const decision = await ledger.hold({
    holder: 'memory', keyId: 'sha256:fixture', origin: 'https://api.fixture.test',
    wanted: [{ id, address: 'T', total: '1.000000' }], trx: '1000000.000000', windowMs: 24 * 3_600_000, nowMs: Number(now),
  });
  const book = await ledger.read();
  globalThis.gc();
  const memory = process.memoryUsage();
  const parts = book.settled.parts;
  const compact = [parts.keys, parts.seconds, parts.times, parts.prefix, parts.micros]
    .reduce((sum, part) => sum + (part === undefined ? 0 : part.byteLength), 0);
  process.stdout.write(JSON.stringify({
    held: decision.shortfalls[0] === undefined, spent: book.spent(0), whole: book.entries.size,
    settled: book.settled.size, heapUsed: memory.heapUsed, compact,
  }));
}
main().catch((error) => { process.stderr.write(String(error)); process.exit(1); });
`;

interface Seen {
  held: boolean;
  spent: string;
  whole: number;
  settled: number;
  heapUsed: number;
  compact: number;
}

describe('a folder ledger of 100,000 orders, one process deciding beside it', () => {
  let dir: string;
  let program: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'energy-ledger-memory-'));
    program = await bundleProgram(DECIDER, join(dir, 'decider.cjs'));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const decide = (path: string, id: string) =>
    new Promise<Seen>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--expose-gc', program, path, budgetLedger('memory'), String(T), id],
        { maxBuffer: 1 << 20 },
        (error, stdout, stderr) => (error === null ? resolve(JSON.parse(stdout) as Seen) : reject(new Error(stderr))),
      ),
    );

  it('keeps whole only the 5 entries that can change, and a heap far below the 100,000 entries', async () => {
    const path = spendLedgerPath(join(dir, 'journal'), budgetLedger('memory'));
    // 100,000 orders of 0.000010 half a second apart (1.000000), 4 without an outcome of 0.25 (1.000000).
    writeSpendLog(path, budgetLedger('memory'), [
      windowLine(24 * HOUR),
      ...settledOrders({ count: 100_000, total: '0.000010', startMs: T, stepMs: 500 }),
      ...[0, 1, 2, 3].flatMap((n) => [holdLine(`open-${n}`, T, '0.250000'), orderLine(`open-${n}`, T, '0.250000')]),
    ]);
    // The first run reads the whole log (no checkpoint yet) and writes the checkpoint; the second reads that.
    const first = await decide(path, 'new-1');
    expect(existsSync(`${path}.totals`)).toBe(true);
    const second = await decide(path, 'new-2');
    expect(first).toMatchObject({ held: true, spent: '3.000000', whole: 5, settled: 100_000 });
    expect(second).toMatchObject({ held: true, spent: '4.000000', whole: 6, settled: 100_000 });
    for (const seen of [first, second]) {
      // The book of every entry took about 1.5 KB an order: 150 MB of heap here (measured: 3.7 MB now).
      expect(seen.heapUsed).toBeLessThan(20 * MiB);
      // The settled entries compactly: 36 bytes each, and 8 more for an amount of its own after a merge.
      expect(seen.compact).toBeLessThanOrEqual(100_000 * 44 + 8);
    }
  }, 120_000);
});
