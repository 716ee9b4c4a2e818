/**
 * The state folder's spend ledger written by many processes at once, as runs, services and hosts sharing a
 * folder write it: each change reads what the others appended and decides under the lock file, so a
 * ceiling checked that way is never passed, and no line is lost or torn. The writers are the ledger's own
 * module, bundled here with esbuild into a small program that 8 processes run side by side.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Holds 1.000000 under a ceiling of 50 `runs` times (when it fits), under one ledger instance; prints how many it held. */
const WRITER = `
import { FileSpendLedger } from './src/journal/spend-ledger-file.ts';
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
    writer = join(dir, 'writer.cjs');
    await build({
      stdin: { contents: WRITER, resolveDir: ROOT, loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: writer,
      logLevel: 'error',
    });
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
