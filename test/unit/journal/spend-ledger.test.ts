/** The spend ledger's file: records once per order, settles, forgets, survives a new instance, 0600, refuses a damaged file. */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError } from '../../../src/domain/errors.js';
import { spentOf } from '../../../src/journal/spend-ledger.js';
import { FileSpendLedger, spendLedgerPath } from '../../../src/journal/spend-ledger-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-spend-ledger-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const A = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
const B = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

describe('FileSpendLedger', () => {
  it('keeps what was placed across instances, once per order, and counts all but the refunded', async () => {
    const path = spendLedgerPath(dir, { origin: 'https://api.example.com', keyId: 'k1' });
    const ledger = new FileSpendLedger(path);
    expect(await ledger.read(0)).toEqual([]);
    await ledger.record({ order_id: 'o1', address: A, total_trx: '3.900000', at_ms: 1_000 });
    await ledger.record({ order_id: 'o1', address: A, total_trx: '3.900000', at_ms: 1_000 });
    await ledger.record({ order_id: 'o2', address: A, total_trx: '3.900000', at_ms: 2_000 });
    await ledger.record({ order_id: 'o3', address: B, total_trx: '1.500000', at_ms: 3_000 });
    expect((statSync(path).mode & 0o777).toString(8)).toBe('600');
    const again = new FileSpendLedger(path);
    expect((await again.read(0)).map((e) => e.order_id)).toEqual(['o1', 'o2', 'o3']);
    expect(spentOf(await again.read(0), new Set([A]))).toBe('7.800000');
    expect(spentOf(await again.read(1_500), new Set([A, B]))).toBe('5.400000');
    await again.settle('o1', 'refunded');
    await again.settle('o2', 'kept');
    await again.settle('unknown', 'refunded');
    expect(spentOf(await ledger.read(0), new Set([A]))).toBe('3.900000');
    await ledger.forget(2_500);
    expect((await ledger.read(0)).map((e) => e.order_id)).toEqual(['o3']);
  });

  it('refuses a damaged file (exit 2) instead of reading it as empty', async () => {
    const path = join(dir, 'spend-x.json');
    writeFileSync(path, '{"entries":[{"order_id":1}]}');
    const error = await new FileSpendLedger(path).read(0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    expect((error as CliError).message).toBe(
      `${path} is not a spend ledger that can be read: --max-spend cannot count`,
    );
  });
});
