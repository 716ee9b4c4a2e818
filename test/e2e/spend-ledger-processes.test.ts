/**
 * The state folder's spend ledger written by many processes at once, as runs, services and hosts sharing a
 * folder write it: each change reads what the others appended and decides under the lock file, so a
 * ceiling checked that way is never passed, and no line is lost or torn. The writers are the ledger's own
 * module, bundled here with esbuild into a small program that 8 processes run side by side; then 16 that ask
 * `hold` beside a log of 20,000 settled orders (written by the test), rewriting the checkpoint as they go.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetLedger } from '../../src/journal/spend-ledger.js';
import { FileSpendLedger } from '../../src/state/folder/spend-ledger-file.js';
import { settledOrders, windowLine, writeSpendLog } from '../helpers/spend-log.js';
import { bundleProgram } from '../helpers/bundled-program.js';

/** Holds 1.000000 under a ceiling of 50 `runs` times (when it fits), under one ledger instance; prints how many it held. */
const WRITER = `
import { FileSpendLedger } from './src/state/folder/spend-ledger-file.ts';
import { addAmounts, compareAmounts } from './src/domain/money.ts';

async function main() {
  const [path, name, runs, who] = process.argv.slice(2);
  const ledger = new FileSpendLedger(path, name);
  let held = 0;
  for (let n = 0; n < Number(runs); n += 1) {
    const fits = await ledger.update(0, (book) => {
      const ok = compareAmounts(addAmounts(book.spent(0), '1.000000'), '50.000000') <= 0;
      const event = { kind: 'hold', id: who + '-' + n, holder: who, address: 'T', total_trx: '1.000000', at_ms: 1, key_id: 'k', origin: 'o' };
      return { events: ok ? [event] : [], value: ok };
    });
    if (fits) held += 1;
  }
  process.stdout.write(String(held));
}
main().catch((error) => { process.stderr.write(String(error)); process.exit(1); });
`;

describe('the spend ledger file, 8 processes writing at once', () => {
  let dir: string;
  let writer: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'energy-ledger-processes-'));
    writer = await bundleProgram(WRITER, join(dir, 'writer.cjs'));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (path: string, who: string) =>
    new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [writer, path, 'budget shared', '20', who], (error, stdout, stderr) =>
        error === null ? resolve(stdout) : reject(new Error(`${who}: ${stderr}`)),
      ),
    );

  it('160 changes wanting 1.0 each under a ceiling of 50: exactly 50 held, every line whole, none twice', async () => {
    const path = join(dir, 'journal', 'spend-0000000000000000.ndjson');
    const held = await Promise.all(Array.from({ length: 8 }, (_, n) => run(path, `p${n}`)));
    expect(held.map(Number).reduce((a, b) => a + b, 0)).toBe(50);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(JSON.parse(lines.shift()!)).toEqual({ format: 'energy spend ledger', version: 2, ledger: 'budget shared' });
    const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toHaveLength(50);
    expect(new Set(ids).size).toBe(50);
  }, 60_000);
});

/** Asks `hold` (the decision every run makes) for 1.000000 under a ceiling of 120 `runs` times; prints how many fitted. */
const HOLDER = `
import { FileSpendLedger } from './src/state/folder/spend-ledger-file.ts';

async function main() {
  const [path, name, runs, who, now] = process.argv.slice(2);
  const ledger = new FileSpendLedger(path, name, { checkpointBytes: 2048 });
  let held = 0;
  for (let n = 0; n < Number(runs); n += 1) {
    const { shortfalls } = await ledger.hold({
      holder: who, keyId: 'sha256:fixture', origin: 'https://api.fixture.test',
      wanted: [{ id: who + '-' + n, address: 'T', total: '1.000000' }], trx: '120.000000', windowMs: 86_400_000, nowMs: Number(now),
    });
    if (shortfalls[0] === undefined) held += 1;
  }
  process.stdout.write(String(held));
}
main().catch((error) => { process.stderr.write(String(error)); process.exit(1); });
`;

describe('the spend ledger file beside 20,000 settled orders, 16 processes holding at once', () => {
  let dir: string;
  let holder: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'energy-ledger-holders-'));
    holder = await bundleProgram(HOLDER, join(dir, 'holder.cjs'));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('160 holds of 1.0 under a ceiling of 120 with 20.0 counted: exactly 100 held, each once, the checkpoint rewritten as they go', async () => {
    const T = Date.UTC(2026, 11, 7, 12);
    const name = budgetLedger('shared');
    const path = join(dir, 'journal', 'spend-1111111111111111.ndjson');
    // 20,000 orders of 0.001, a second apart: 20.000000 in the day's window.
    writeSpendLog(path, name, [
      windowLine(86_400_000),
      ...settledOrders({ count: 20_000, total: '0.001000', startMs: T, stepMs: 1000 }),
    ]);
    const run = (who: string) =>
      new Promise<string>((resolve, reject) =>
        execFile(process.execPath, [holder, path, name, '10', who, String(T)], (error, stdout, stderr) =>
          error === null ? resolve(stdout) : reject(new Error(`${who}: ${stderr}`)),
        ),
      );
    const held = await Promise.all(Array.from({ length: 16 }, (_, n) => run(`p${n}`)));
    expect(held.map(Number).reduce((a, b) => a + b, 0)).toBe(100);
    expect(existsSync(`${path}.totals`)).toBe(true);
    const ledger = new FileSpendLedger(path, name);
    expect(await ledger.spent(0)).toBe('120.000000');
    const holds = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as { kind: string; holder?: string; id?: string })
      .filter((event) => event.kind === 'hold' && event.holder !== 'fixture');
    expect(holds).toHaveLength(100);
    expect(new Set(holds.map((event) => event.id)).size).toBe(100);
  }, 120_000);
});
