/**
 * The spend ledger: what its events add up to (spend-book.ts), and its file in the state folder: appended,
 * read by tail, one writer at a time, pruned only past the longest window, refused when it cannot be read,
 * an older energy's file taken in once. Expected figures are literals worked out by hand.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CliError } from '../../../../src/domain/errors.js';
import { addAmounts, compareAmounts } from '../../../../src/domain/money.js';
import { SpendBook } from '../../../../src/journal/spend-book.js';
import { accountLedger, budgetLedger, type SpendEvent } from '../../../../src/journal/spend-ledger.js';
import { FileSpendLedger, spendLedgerPath } from '../../../../src/state/folder/spend-ledger-file.js';
import { legacyLedger } from '../../../../src/state/folder/spend-ledger-v1.js';

const A = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
const HOUR = 3_600_000;
const T = Date.UTC(2026, 10, 27, 12);

const hold = (id: string, at: number, total = '3.900000', holder = 'run-1'): SpendEvent => ({
  kind: 'hold',
  id,
  holder,
  address: A,
  total_trx: total,
  at_ms: at,
  key_id: 'sha256:k1',
  origin: 'https://api.example.com',
});
const order = (id: string, at: number, total = '3.900000'): SpendEvent => ({
  kind: 'order',
  id,
  order_id: `order-${id}`,
  address: A,
  total_trx: total,
  at_ms: at,
});
const final = (id: string, state: 'kept' | 'refunded' | 'unknown'): SpendEvent => ({
  kind: 'final',
  id,
  state,
  at_ms: T,
  note: null,
});

function book(...events: SpendEvent[]): SpendBook {
  const result = new SpendBook();
  for (const event of events) result.apply(event);
  return result;
}

describe('SpendBook', () => {
  it('counts a hold at its price, then the order at the server price, from when each came; refunded and dropped count nothing', () => {
    const b = book(hold('a', T), hold('b', T), order('b', T + 5_000, '3.800000'), hold('c', T), order('c', T));
    b.apply(final('c', 'refunded'));
    b.apply(hold('d', T));
    b.apply({ kind: 'drop', id: 'd', holder: 'run-1', at_ms: T });
    expect(b.spent(T - HOUR)).toBe('7.700000');
    // The window starts after the hold of a, at the order of b: only b counts.
    expect(b.spent(T + 1)).toBe('3.800000');
    expect(b.spent(T + 5_001)).toBe('0.000000');
  });

  it('keeps the first outcome: an order settled refunded and learnt again stays refunded', () => {
    const b = book(hold('a', T), order('a', T), final('a', 'refunded'), order('a', T + 10), hold('a', T + 20));
    b.apply(final('a', 'kept'));
    expect(b.spent(0)).toBe('0.000000');
  });

  it('costs a new hold nothing where the id has an order, the difference where it is held, its price where it is new', () => {
    const b = book(hold('ordered', T - 2 * HOUR), order('ordered', T - 2 * HOUR), hold('held', T, '2.000000'));
    expect(b.costOfHold('ordered', '3.900000', T - HOUR)).toBe('0.000000');
    expect(b.costOfHold('held', '3.900000', T - HOUR)).toBe('1.900000');
    expect(b.costOfHold('new', '3.900000', T - HOUR)).toBe('3.900000');
    // A hold out of the window counts again from now: its whole price.
    expect(b.costOfHold('held', '3.900000', T + 1)).toBe('3.900000');
  });

  it('counts one request held by two runs once, at the larger price, until its order comes', () => {
    const b = book(hold('x', T, '3.900000', 'host-a'), hold('x', T, '4.100000', 'host-b'));
    expect(b.spent(0)).toBe('4.100000');
    b.apply({ kind: 'drop', id: 'x', holder: 'host-b', at_ms: T });
    expect(b.spent(0)).toBe('3.900000');
    b.apply(order('x', T + 1, '3.900000'));
    b.apply({ kind: 'drop', id: 'x', holder: 'host-a', at_ms: T });
    expect(b.spent(0)).toBe('3.900000');
  });

  it('can prune only what counts nothing or counts from before the cut', () => {
    const b = book(hold('old', T - 25 * HOUR), order('old', T - 25 * HOUR), hold('new', T), hold('gone', T));
    b.apply({ kind: 'drop', id: 'gone', holder: 'run-1', at_ms: T });
    expect(b.prunable(T - 24 * HOUR).sort()).toEqual(['gone', 'old']);
  });
});

describe('FileSpendLedger', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'energy-spend-ledger-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const append = (ledger: FileSpendLedger, at: number, ...events: SpendEvent[]) =>
    ledger.update(at, () => ({ events, value: undefined }));

  it('names the file by the ledger: a key id or a budget, never the base URL', () => {
    expect(spendLedgerPath(dir, accountLedger('sha256:k1'))).not.toBe(spendLedgerPath(dir, accountLedger('sha256:k2')));
    expect(spendLedgerPath(dir, accountLedger('sha256:k1'))).not.toBe(spendLedgerPath(dir, budgetLedger('sha256:k1')));
    expect(spendLedgerPath(dir, accountLedger('sha256:k1'))).toMatch(/\/spend-[0-9a-f]{16}\.ndjson$/);
  });

  it('appends, 0600, and a new instance (another process) reads the same; it reads only the tail after that', async () => {
    const path = spendLedgerPath(dir, accountLedger('sha256:k1'));
    const first = new FileSpendLedger(path, accountLedger('sha256:k1'));
    await append(first, T, hold('a', T), order('a', T));
    expect((statSync(path).mode & 0o777).toString(8)).toBe('600');
    const second = new FileSpendLedger(path, accountLedger('sha256:k1'));
    expect((await second.read()).spent(0)).toBe('3.900000');
    await append(second, T, hold('b', T));
    // The first sees the second's line: what was appended since its own last look.
    expect((await first.read()).spent(0)).toBe('7.800000');
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ format: 'energy spend ledger', version: 2, ledger: 'account sha256:k1' });
    expect(lines.slice(1).map((line) => JSON.parse(line).kind)).toEqual(['hold', 'order', 'hold']);
  });

  it('lets concurrent changes through one at a time: 40 runs wanting 3.9 each under 8 hold exactly 2', async () => {
    const path = spendLedgerPath(dir, budgetLedger('b'));
    const held = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        new FileSpendLedger(path, budgetLedger('b')).update(T, (b) => {
          const fits = compareAmounts(addAmounts(b.spent(0), '3.900000'), '8.000000') <= 0;
          return { events: fits ? [hold(`r${n}`, T, '3.900000', `run-${n}`)] : [], value: fits };
        }),
      ),
    );
    expect(held.filter(Boolean)).toHaveLength(2);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('takes one turn per file however its path is spelt: 40 writers, each its own spelling, wanting 3.9 under 8 hold exactly 2', async () => {
    const name = budgetLedger('b');
    const file = spendLedgerPath(dir, name).slice(dir.length + 1);
    const held = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        new FileSpendLedger(`${dir}/${'./'.repeat(n + 1)}${file}`, name).update(T, (b) => {
          const fits = compareAmounts(addAmounts(b.spent(0), '3.900000'), '8.000000') <= 0;
          return { events: fits ? [hold(`r${n}`, T, '3.900000', `run-${n}`)] : [], value: fits };
        }),
      ),
    );
    expect(held.filter(Boolean)).toHaveLength(2);
    expect(readFileSync(join(dir, file), 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it("refuses a ledger it cannot read (a folder in its place, a damaged line, another ledger's file), never reading it as empty", async () => {
    const path = spendLedgerPath(dir, accountLedger('sha256:k1'));
    mkdirSync(path);
    const folder = await new FileSpendLedger(path, accountLedger('sha256:k1')).read().catch((e: unknown) => e);
    expect(folder).toBeInstanceOf(CliError);
    expect((folder as CliError).exitCode).toBe(2);
    expect((folder as CliError).message).toBe(
      `the --max-spend ledger ${path} cannot be read (it is not a regular file): --max-spend cannot count, nothing ordered`,
    );
    rmSync(path, { recursive: true });
    const ledger = new FileSpendLedger(path, accountLedger('sha256:k1'));
    await append(ledger, T, hold('a', T));
    appendFileSync(path, '{"kind":"hold"}\n');
    const damaged = await new FileSpendLedger(path, accountLedger('sha256:k1')).read().catch((e: unknown) => e);
    expect((damaged as CliError).message).toContain('(line 2 after the last read is not a ledger event)');
    const other = await new FileSpendLedger(path, budgetLedger('x')).read().catch((e: unknown) => e);
    expect((other as CliError).message).toContain("(it is account sha256:k1's)");
    // A file that cannot even be opened (a symbolic link to itself: ELOOP) is no more an empty ledger.
    const loop = spendLedgerPath(dir, budgetLedger('loop'));
    symlinkSync(loop, loop);
    const opened = await new FileSpendLedger(loop, budgetLedger('loop')).read().catch((e: unknown) => e);
    expect(opened).toBeInstanceOf(CliError);
    expect((opened as CliError).message).toMatch(/^the --max-spend ledger .* cannot be read \(ELOOP/);
  });

  it('syncs the appended lines to disk while it still holds the lock: the next holder reads what is durable', async () => {
    const path = spendLedgerPath(dir, budgetLedger('synced'));
    const ledger = new FileSpendLedger(path, budgetLedger('synced'));
    await append(ledger, T, hold('a', T));
    const handle = await open(path, 'r');
    const prototype = Object.getPrototypeOf(handle) as { datasync: () => Promise<void> };
    await handle.close();
    const seen: { locked: boolean; size: number }[] = [];
    const sync = vi.spyOn(prototype, 'datasync').mockImplementation(async function (this: FileHandle) {
      seen.push({ locked: existsSync(`${path}.lock`), size: (await this.stat()).size });
    });
    try {
      await append(ledger, T, hold('b', T));
    } finally {
      sync.mockRestore();
    }
    // Once, after the lines were written (the file at its final size), before the lock file went.
    expect(seen).toEqual([{ locked: true, size: statSync(path).size }]);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('drops a last line cut short by a crash, and writes over it', async () => {
    const path = spendLedgerPath(dir, accountLedger('sha256:k1'));
    await append(new FileSpendLedger(path, accountLedger('sha256:k1')), T, hold('a', T));
    appendFileSync(path, '{"kind":"hold","id":"b","hol');
    const ledger = new FileSpendLedger(path, accountLedger('sha256:k1'));
    expect((await ledger.read()).spent(0)).toBe('3.900000');
    await append(ledger, T, hold('c', T));
    expect(readFileSync(path, 'utf8')).not.toContain('"hol\n');
    expect((await new FileSpendLedger(path, accountLedger('sha256:k1')).read()).spent(0)).toBe('7.800000');
  });

  it('writes the header over a first write cut before its first line break (an empty file, or half a header): later runs read it', async () => {
    for (const [name, cut] of [
      ['empty', ''],
      ['half', '{"format":"energy spend led'],
    ] as const) {
      const path = spendLedgerPath(dir, budgetLedger(name));
      writeFileSync(path, cut, { mode: 0o600 });
      await append(new FileSpendLedger(path, budgetLedger(name)), T, hold('a', T));
      const lines = readFileSync(path, 'utf8').split('\n');
      expect(JSON.parse(lines[0]!)).toEqual({ format: 'energy spend ledger', version: 2, ledger: `budget ${name}` });
      expect(lines.slice(1)).toHaveLength(2);
      expect((await new FileSpendLedger(path, budgetLedger(name)).read()).spent(0)).toBe('3.900000');
    }
  });

  it('prunes only what is older than the longest window any ceiling used on it, and rewrites the file without it', async () => {
    const path = spendLedgerPath(dir, budgetLedger('shared'));
    const ledger = new FileSpendLedger(path, budgetLedger('shared'));
    // A day-long ceiling used it once; then only a minute-long one, 150 orders a minute apart.
    await append(ledger, T, { kind: 'window', window_ms: 24 * HOUR }, hold('day', T), order('day', T));
    for (let n = 0; n < 150; n += 1) await append(ledger, T + n * 60_000, hold(`m${n}`, T + n * 60_000));
    // The minute-long ceiling, used last, never prunes what the day-long one may still count.
    await append(ledger, T + 150 * 60_000, { kind: 'window', window_ms: 60_000 });
    const later = new FileSpendLedger(path, budgetLedger('shared'));
    expect((await later.read()).spent(T - 1)).toBe('588.900000');
    // 27 hours on, with nothing newer in the ledger, nothing is forgotten: a "now" a day past every entry is a
    // clock to read again, and the newest entry less the longest window bounds what may go.
    await append(later, T + 27 * HOUR, { kind: 'window', window_ms: 60_000 });
    expect((await new FileSpendLedger(path, budgetLedger('shared')).read()).spent(T - 1)).toBe('588.900000');
    // Once an entry 27 hours on is in it, no window reaches the rest: forgotten, the file rewritten without it.
    await append(later, T + 27 * HOUR, hold('late', T + 27 * HOUR, '1.000000'));
    await append(later, T + 27 * HOUR);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).kind)).toEqual([undefined, 'window', 'hold']);
    expect(JSON.parse(lines[1]!)).toMatchObject({ kind: 'window', window_ms: 24 * HOUR });
    const fresh = new FileSpendLedger(path, budgetLedger('shared'));
    expect((await fresh.read()).longestWindowMs).toBe(24 * HOUR);
    expect((await fresh.read()).spent(0)).toBe('1.000000');
  });

  it("takes an older energy's ledger of this base URL and key in once, at its stamps, then renames it", async () => {
    const account = { origin: 'https://api.example.com', keyId: 'sha256:k1' };
    const legacy = legacyLedger(dir, account);
    writeFileSync(
      legacy.path,
      JSON.stringify({
        version: 1,
        entries: [
          { order_id: 'o1', address: A, total_trx: '3.900000', at_ms: T, state: 'kept' },
          { order_id: 'o2', address: A, total_trx: '2.000000', at_ms: T, state: 'refunded' },
          { order_id: 'o3', address: A, total_trx: '1.500000', at_ms: T, state: 'placed' },
        ],
      }),
    );
    const path = spendLedgerPath(dir, accountLedger('sha256:k1'));
    const ledger = new FileSpendLedger(path, accountLedger('sha256:k1'), { legacy });
    await append(ledger, T);
    expect(statSync(`${legacy.path}.imported`).isFile()).toBe(true);
    const again = new FileSpendLedger(path, accountLedger('sha256:k1'), { legacy });
    expect((await again.read()).spent(T)).toBe('5.400000');
  });
});
