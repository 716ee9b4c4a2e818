import { describe, expect, it } from 'vitest';
import { GroupedAppends } from '../../../src/ensure/grouped-appends.js';
import type { SpendEvent } from '../../../src/journal/spend-ledger.js';

const drop = (id: string): SpendEvent => ({ kind: 'drop', id, holder: 'h', at_ms: 1 });

/** A ledger whose writes end when the test says: each write's events, and its end. */
function slowLedger() {
  const writes: { ids: string[]; nowMs: number; end: (error?: Error) => void }[] = [];
  return {
    writes,
    append: (events: readonly SpendEvent[], nowMs: number) =>
      new Promise<void>((done, fail) => {
        const ids = events.map((event) => (event.kind === 'window' ? '' : event.id));
        writes.push({ ids, nowMs, end: (error) => (error === undefined ? done() : fail(error)) });
      }),
  };
}

describe('GroupedAppends', () => {
  it('writes at once when nothing is on its way, and what came meanwhile in one write after it, each caller told when its own write ended', async () => {
    const ledger = slowLedger();
    const appends = new GroupedAppends(ledger);
    const ended: string[] = [];
    const a = appends.append([drop('a')], 10).then(() => ended.push('a'));
    const b = appends.append([drop('b')], 30).then(() => ended.push('b'));
    const c = appends.append([drop('c')], 20).then(() => ended.push('c'));
    expect(ledger.writes.map((w) => w.ids)).toEqual([['a']]);
    ledger.writes[0]!.end();
    await a;
    expect(ended).toEqual(['a']);
    await new Promise((done) => setImmediate(done));
    expect(ledger.writes.map((w) => [w.ids, w.nowMs])).toEqual([
      [['a'], 10],
      [['b', 'c'], 30],
    ]);
    ledger.writes[1]!.end();
    await Promise.all([b, c]);
    expect(ended).toEqual(['a', 'b', 'c']);
  });

  it('a failed write fails each of its callers, and the next write is still made', async () => {
    const ledger = slowLedger();
    const appends = new GroupedAppends(ledger);
    const a = appends.append([drop('a')], 1);
    const b = appends.append([drop('b')], 1).catch((error: unknown) => error);
    const c = appends.append([drop('c')], 1).catch((error: unknown) => error);
    ledger.writes[0]!.end();
    await a;
    await new Promise((done) => setImmediate(done));
    ledger.writes[1]!.end(new Error('the database went away'));
    expect(((await b) as Error).message).toBe('the database went away');
    expect(((await c) as Error).message).toBe('the database went away');
    const d = appends.append([drop('d')], 1);
    expect(ledger.writes.map((w) => w.ids)).toEqual([['a'], ['b', 'c'], ['d']]);
    ledger.writes[2]!.end();
    await d;
  });
});
