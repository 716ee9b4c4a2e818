/**
 * A batch line's identity (line-identity.ts), read through checkBatch and batchLines as a run reads it: a
 * line is one order however the file grows; and every bad line of a file is reported in one run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BadLineError } from '../../../src/domain/cli-errors.js';
import { legacyRequestId, lineRequestId } from '../../../src/batch/line-identity.js';
import { batchLines, checkBatch } from '../../../src/batch/source.js';
import { UsageError } from '../../../src/domain/errors.js';
import { testAddress } from '../sandbox/addresses.js';

const RULES = { energyPerPortion: 1000, maxEnergy: 5_000_000, hours: [1, 3] };
const A = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
const B = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const dir = mkdtempSync(join(tmpdir(), 'energy-line-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** The ids of a file's lines, in file order, as the batch named `name` gives them. */
async function ids(text: string, name = 'payouts.csv', format?: 'csv' | 'ndjson'): Promise<string[]> {
  const path = join(dir, `f${(files += 1)}`);
  writeFileSync(path, text);
  const source = await checkBatch({ path, label: name, name }, RULES, format ?? 'csv', () => undefined);
  const out: string[] = [];
  for await (const line of batchLines(source)) out.push(lineRequestId(source, line));
  return out;
}
const csv = (...rows: string[]) => `address,energy,hours\n${rows.map((row) => `${row}\n`).join('')}`;
const r1 = `${A},65000,1`;
const r2 = `${B},65000,1`;
const r3 = `${testAddress(3)},2000,3`;

describe('a batch line is one order however the file grows', () => {
  it('appending lines keeps the earlier lines’ ids; only the new lines are new', async () => {
    const [a, b] = await ids(csv(r1, r2));
    expect(await ids(csv(r1, r2, r3))).toEqual([a, b, expect.not.stringMatching(new RegExp(`^(${a}|${b})$`))]);
  });

  it('a reordered file, a deleted line, CRLF, a BOM, quotes or NDJSON: the same ids for the same lines', async () => {
    const [a, b, c] = await ids(csv(r1, r2, r3));
    expect(await ids(csv(r3, r1, r2))).toEqual([c, a, b]);
    expect(await ids(csv(r1, r3))).toEqual([a, c]);
    expect(await ids(`\uFEFFaddress,energy,hours\r\n"${A}","65000","1"\r\n`)).toEqual([a]);
    const ndjson = `{"address":"${B}","energy":65000,"duration_hours":1}\n{"address":"${A}","energy":65000,"hours":1}\n`;
    expect(await ids(ndjson, 'payouts.csv', 'ndjson')).toEqual([b, a]);
  });

  it('a line repeated is one more order; deleting the first of two leaves one, the first', async () => {
    const [first, second] = await ids(csv(r1, r1));
    expect(first).not.toBe(second);
    expect(await ids(csv(r1))).toEqual([first]);
    expect(await ids(csv(r2, r1, r1, r1))).toEqual([expect.any(String), first, second, expect.any(String)]);
  });

  it('a copy under another name, or standard input, is another batch; a line’s own id is kept as written', async () => {
    const [a] = await ids(csv(r1));
    expect(await ids(csv(r1), 'payouts-2.csv')).not.toEqual([a]);
    expect(await ids(csv(r1), 'stdin')).not.toEqual([a]);
    expect(await ids(`address,energy,hours,client_request_id\n${r1},pay-1\n`)).toEqual(['pay-1']);
  });

  it('ids have one width, and the id of earlier versions is the file hash and line number', async () => {
    const path = join(dir, 'legacy.csv');
    writeFileSync(path, csv(r1, r2));
    const source = await checkBatch({ path, label: 'x', name: 'x' }, RULES, 'csv', () => undefined);
    const lines = [];
    for await (const line of batchLines(source)) lines.push(line);
    expect(lines.map((line) => lineRequestId(source, line))).toEqual([
      expect.stringMatching(/^batch-[0-9a-f]{32}$/),
      expect.stringMatching(/^batch-[0-9a-f]{32}$/),
    ]);
    expect(legacyRequestId(source, lines[1]!)).toBe(`batch-${source.digest.slice(0, 24)}-3`);
  });
});

describe('every bad line of a file in one run', () => {
  async function check(text: string): Promise<{ error: unknown; said: BadLineError[] }> {
    const path = join(dir, `bad${(files += 1)}`);
    writeFileSync(path, text);
    const said: BadLineError[] = [];
    const error = await checkBatch({ path, label: 'f.csv', name: 'f.csv' }, RULES, 'csv', (e) => said.push(e)).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { error, said };
  }

  it('one bad line is the error itself', async () => {
    const { error, said } = await check(csv(r1, `${A},1500,1`));
    expect((error as Error).message).toBe(
      'f.csv, line 3: energy 1,500 is not a multiple of the portion, 1,000: nothing was bought',
    );
    expect(said).toEqual([]);
  });

  it('several: each is said, and the error counts them and names their lines', async () => {
    const { error, said } = await check(
      `address,energy,hours,client_request_id\n${r1},x 1\n${r2},\n${A},1500,1,\n${A},65000,2,\n${B},1000,1,d\n${A},2000,1,d\n`,
    );
    expect(said.map((e) => `${e.line}: ${e.problem}`)).toEqual([
      '2: client_request_id "x 1" must be 1 to 64 letters, digits or ._:-',
      '4: energy 1,500 is not a multiple of the portion, 1,000',
      '5: hours 2 is not offered: use one of 1, 3',
      '7: client_request_id d is already on line 6',
    ]);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      'f.csv: 4 lines are not valid orders (lines 2, 4, 5, 7, each said above): nothing was bought',
    );
  });

  it('a bad header ends the check at once', async () => {
    const { error, said } = await check(`address,energy,hourz\n${r1}\n${A},1500,1\n`);
    expect((error as Error).message).toMatch(/^f\.csv, line 1: unknown column "hourz"/);
    expect(said).toEqual([]);
  });
});
