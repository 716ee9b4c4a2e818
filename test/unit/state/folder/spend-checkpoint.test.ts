/**
 * The folder ledger's checkpoint: what a process holds is the settled entries compactly and the rest whole, the
 * log read only past the checkpoint, and the checkpoint used only where it still describes the log (behind it,
 * ahead of it, damaged, another ledger's, a torn last line, a write that fails, a rewrite that prunes). The logs
 * are written by the test (test/helpers/spend-log.ts); expected sums are literals worked out by hand.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetLedger, type HoldRequest } from '../../../../src/journal/spend-ledger.js';
import { FileSpendLedger, spendLedgerPath } from '../../../../src/state/folder/spend-ledger-file.js';
import {
  appendSpendLog,
  holdLine,
  orderLine,
  settledOrders,
  windowLine,
  writeSpendLog,
} from '../../../helpers/spend-log.js';

const HOUR = 3_600_000;
const T = Date.UTC(2026, 11, 7, 12);
const NAME = budgetLedger('fixture');

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-spend-checkpoint-'));
  path = spendLedgerPath(join(dir, 'journal'), NAME);
  // 3,000 orders of 1.000001 a second apart, every third refunded (2,000 counted: 2000.002000); 5 orders of 2
  // without an outcome (10.000000) and 3 holds of 0.5 without an order (1.500000), all at T: 2011.502000.
  writeSpendLog(path, NAME, [
    windowLine(24 * HOUR),
    ...settledOrders({ count: 3000, total: '1.000001', startMs: T, stepMs: 1000, refundedEvery: 3 }),
    ...[0, 1, 2, 3, 4].flatMap((n) => [holdLine(`open-${n}`, T, '2.000000'), orderLine(`open-${n}`, T, '2.000000')]),
    ...[0, 1, 2].map((n) => holdLine(`held-${n}`, T, '0.500000')),
  ]);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const checkpoint = () => `${path}.totals`;
const request = (wanted: HoldRequest['wanted'], trx: string): HoldRequest => ({
  holder: 'run-test',
  keyId: 'sha256:fixture',
  origin: 'https://api.fixture.test',
  wanted,
  trx,
  windowMs: 24 * HOUR,
  nowMs: T,
});

describe('the folder ledger with its checkpoint', () => {
  it('holds the settled entries compactly and the others whole, and counts the window exactly', async () => {
    const book = await new FileSpendLedger(path, NAME, { checkpointBytes: 1 }).read();
    expect(existsSync(checkpoint())).toBe(true);
    expect(book.entries.size).toBe(8);
    expect(book.settled.size).toBe(3000);
    expect(book.spent(0)).toBe('2011.502000');
    // From T less 1,500 s: orders 0-1500, 501 of them refunded, 1,000 counted, and the 8 at T.
    expect(book.spent(T - 1_500_000)).toBe('1011.501000');
    expect(await new FileSpendLedger(path, NAME).totals(T)).toEqual({
      ledger: NAME,
      longest_window_ms: 24 * HOUR,
      entries: 2008,
      spent_trx: '2011.502000',
    });
  });

  it('summed for state status: read without its lock and never written, however far past a checkpoint', async () => {
    const totals = await new FileSpendLedger(path, NAME, { readOnly: true, checkpointBytes: 1 }).totals(T);
    expect(totals).toEqual({ ledger: NAME, longest_window_ms: 24 * HOUR, entries: 2008, spent_trx: '2011.502000' });
    expect(existsSync(checkpoint())).toBe(false);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('reads only the log past its checkpoint: a line spoilt inside what it covers is never read', async () => {
    await new FileSpendLedger(path, NAME, { checkpointBytes: 1 }).read();
    const text = readFileSync(path, 'utf8');
    const middle = text.indexOf('"fill-1500"');
    writeFileSync(path, `${text.slice(0, middle)}"FILL-1500"${text.slice(middle + 11)}`);
    expect((await new FileSpendLedger(path, NAME).read()).spent(0)).toBe('2011.502000');
    rmSync(checkpoint());
    // Without it, the whole log is read again: the spoilt line is another order's, which counts once more.
    expect((await new FileSpendLedger(path, NAME).read()).spent(0)).not.toBe('2011.502000');
  });

  it('behind the log (a kill after the log was written): the tail is read; a settled id costs nothing again', async () => {
    await new FileSpendLedger(path, NAME, { checkpointBytes: 1 }).read();
    const covered = readFileSync(checkpoint());
    const writer = new FileSpendLedger(path, NAME);
    await writer.append([{ kind: 'final', id: 'open-0', state: 'kept', at_ms: T, note: null }], T);
    await writer.append([{ kind: 'hold', ...holdFields('late', '3.000000') }], T);
    expect(readFileSync(checkpoint())).toEqual(covered);
    const reader = new FileSpendLedger(path, NAME);
    expect(await reader.spent(0)).toBe('2014.502000');
    // Under a ceiling of exactly that: fill-2 (ordered, kept) fits at no cost, a new id of 0.000001 does not.
    const decision = await reader.hold(
      request(
        [
          { id: 'fill-2', address: 'T', total: '5.000000' },
          { id: 'new', address: 'T', total: '0.000001' },
        ],
        '2014.502000',
      ),
    );
    expect(decision.shortfalls).toEqual([undefined, { left: '0.000000', oldestMs: T - 2_999_000 }]);
    expect(await new FileSpendLedger(path, NAME).spent(0)).toBe('2014.502000');
  });

  it('ahead of the log (an older copy put back, cut short or grown otherwise): it is not used', async () => {
    const before = readFileSync(path);
    const ledger = new FileSpendLedger(path, NAME, { checkpointBytes: 1 });
    await ledger.append([{ kind: 'hold', ...holdFields('b1', '7.000000') }], T);
    expect(await new FileSpendLedger(path, NAME).spent(0)).toBe('2018.502000');
    writeFileSync(path, before);
    expect(await new FileSpendLedger(path, NAME).spent(0)).toBe('2011.502000');
    // Longer than the checkpoint covers, with other bytes where it ends.
    appendSpendLog(
      path,
      Array.from({ length: 20 }, (_, n) => holdLine(`c-${n}`, T, '1.000000')),
    );
    expect(await new FileSpendLedger(path, NAME).spent(0)).toBe('2031.502000');
  });

  it('drops a torn last line past the checkpoint, and writes over it', async () => {
    await new FileSpendLedger(path, NAME, { checkpointBytes: 1 }).read();
    writeFileSync(path, '{"kind":"hold","id":"torn","hol', { flag: 'a' });
    const ledger = new FileSpendLedger(path, NAME);
    expect(await ledger.spent(0)).toBe('2011.502000');
    await ledger.append([{ kind: 'hold', ...holdFields('after', '1.000000') }], T);
    expect(readFileSync(path, 'utf8')).not.toContain('"hol\n');
    expect(await new FileSpendLedger(path, NAME).spent(0)).toBe('2012.502000');
  });

  it("is not used damaged, nor beside another ledger's log; one that cannot be written costs only reading", async () => {
    await new FileSpendLedger(path, NAME, { checkpointBytes: 1 }).read();
    const bytes = readFileSync(checkpoint());
    bytes[bytes.length - 1] = bytes.at(-1)! ^ 0xff;
    writeFileSync(checkpoint(), bytes);
    expect(await new FileSpendLedger(path, NAME, { checkpointBytes: 1 }).spent(0)).toBe('2011.502000');
    expect(readFileSync(checkpoint())).not.toEqual(bytes);
    // Another ledger's log of the same size beside this checkpoint.
    const other = budgetLedger('fixturf');
    const otherPath = spendLedgerPath(join(dir, 'journal'), other);
    writeFileSync(otherPath, readFileSync(path, 'utf8').replace('budget fixture', 'budget fixturf'), { mode: 0o600 });
    cpSync(checkpoint(), `${otherPath}.totals`);
    appendSpendLog(otherPath, [holdLine('mine', T, '1.000000')]);
    expect(await new FileSpendLedger(otherPath, other).spent(0)).toBe('2012.502000');
    // A folder where the checkpoint goes: every read reads the log, exactly.
    rmSync(checkpoint());
    mkdirSync(checkpoint());
    expect(await new FileSpendLedger(path, NAME, { checkpointBytes: 1 }).spent(0)).toBe('2011.502000');
    expect(statSync(checkpoint()).isDirectory()).toBe(true);
  });

  it('prunes settled entries no window reaches from the checkpoint and from the log', async () => {
    writeSpendLog(path, NAME, [
      windowLine(24 * HOUR),
      ...settledOrders({ count: 200, total: '1.000000', startMs: T - 30 * HOUR, stepMs: 1000, prefix: 'old' }),
      ...settledOrders({ count: 10, total: '1.000000', startMs: T, stepMs: 1000, prefix: 'new' }),
    ]);
    rmSync(checkpoint(), { force: true });
    const ledger = new FileSpendLedger(path, NAME, { checkpointBytes: 1 });
    expect(await ledger.spent(0)).toBe('210.000000');
    await ledger.append([{ kind: 'hold', ...holdFields('x', '0.500000') }], T);
    // The header, the window, 3 lines for each of the 10 new orders, the hold.
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(33);
    const fresh = await new FileSpendLedger(path, NAME).read();
    expect(fresh.settled.size).toBe(10);
    expect(fresh.spent(0)).toBe('10.500000');
  });
});

function holdFields(id: string, total: string) {
  return {
    id,
    holder: 'run-test',
    address: 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY',
    total_trx: total,
    at_ms: T,
    key_id: 'sha256:fixture',
    origin: 'https://api.fixture.test',
  };
}
