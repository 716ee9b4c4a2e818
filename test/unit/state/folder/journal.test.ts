import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, pendingRecordsIn } from '../../../../src/state/folder/journal.js';
import { RETENTION_DAYS } from '../../../../src/state/folder/journal-prune.js';
import { keyIdOf } from '../../../../src/journal/record.js';
import { fakeClock } from '../../../helpers/fake-clock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const scope = { origin: 'https://api.example.com', keyId: keyIdOf('ak_live_1') };
const body = (id: string) =>
  JSON.stringify({
    client_request_id: id,
    address: 'T…',
    energy: 65000,
    duration_hours: 1,
    expected_total_trx: '3.700000',
  });

describe('Journal', () => {
  it('writes a pending record with the exact body bytes, 0600 in 0700 folders', async () => {
    const journal = new Journal(dir, scope);
    const { record, fresh } = await journal.begin('a/../b "c"', body('a/../b "c"'));
    expect(fresh).toBe(true);
    expect(journal.find('a/../b "c"')).toEqual(record);
    expect(journal.find('a/../b "c"')!.body).toBe(body('a/../b "c"'));
    const pending = join(dir, 'journal', 'pending');
    expect(statSync(pending).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(pending)) expect(statSync(join(pending, name)).mode & 0o777).toBe(0o600);
  });

  it('lets only the first of two writers of one id create its record', async () => {
    const journal = new Journal(dir, scope);
    await journal.begin('x', body('x'));
    const second = await journal.begin('x', JSON.stringify({ other: true }));
    expect(second.fresh).toBe(false);
    expect(second.record.body).toBe(body('x'));
  });

  it('moves a settled record out of the pending list, keeping its outcome', async () => {
    const journal = new Journal(dir, scope);
    const { record } = await journal.begin('x', body('x'));
    expect(journal.pendingCount()).toBe(1);
    await journal.settle(record, { kind: 'created', order_id: 'o-1' });
    expect(journal.pendingCount()).toBe(0);
    expect(journal.pending()).toEqual([]);
    expect(journal.find('x')!.outcome).toMatchObject({ kind: 'created', order_id: 'o-1' });
  });

  it('a record settled "existing" (the server already had the order) is returned to the next writer of its id', async () => {
    const journal = new Journal(dir, scope);
    const { record } = await journal.begin('x', body('x'));
    await journal.settle(record, { kind: 'existing', order_id: 'o-1' });
    const again = await journal.begin('x', body('x'));
    expect(again.fresh).toBe(false);
    expect(again.record.outcome).toMatchObject({ kind: 'existing', order_id: 'o-1' });
    expect(journal.pendingCount()).toBe(0);
    expect(journal.ordered(0).map((r) => r.client_request_id)).toEqual(['x']);
  });

  it('lists pending records oldest first, whatever order the folder lists them in', async () => {
    const clock = fakeClock(Date.parse('2026-11-20T12:00:00Z'));
    const journal = new Journal(dir, scope, clock.now);
    const ids = ['c', 'a', 'e', 'b', 'd', 'f'];
    for (const id of ids) {
      await journal.begin(id, body(id));
      clock.advance(1000);
    }
    expect(journal.pending().map((r) => r.client_request_id)).toEqual(ids);
    expect(journal.allPending().map((r) => r.client_request_id)).toEqual(ids);
    expect(pendingRecordsIn(dir).records.map((r) => r.client_request_id)).toEqual(ids);
  });

  it('keeps scopes apart: another API or key neither sees nor counts the record', async () => {
    const journal = new Journal(dir, scope);
    await journal.begin('x', body('x'));
    const otherKey = new Journal(dir, { ...scope, keyId: keyIdOf('ak_live_2') });
    expect(otherKey.find('x')).toBeUndefined();
    expect(otherKey.pendingCount()).toBe(0);
    expect(otherKey.covers(journal.pending()[0]!)).toBe(false);
    expect(pendingRecordsIn(dir).records).toHaveLength(1);
  });

  it('does not count the id the caller is itself settling', async () => {
    const journal = new Journal(dir, scope);
    await journal.begin('x', body('x'));
    await journal.begin('y', body('y'));
    expect(journal.pendingCount('x')).toBe(1);
  });

  it('prunes settled records past the retention period, at most once a day, never pending ones', async () => {
    const clock = fakeClock(Date.now());
    const journal = new Journal(dir, scope, clock.now);
    const old = await journal.settle((await journal.begin('old', body('old'))).record, {
      kind: 'created',
      order_id: 'o',
    });
    await journal.begin('waiting', body('waiting'));
    const settledFile = readdirSync(join(dir, 'journal', 'settled'))[0]!;
    const past = new Date(clock.now() - (RETENTION_DAYS + 1) * 86_400_000);
    utimesSync(join(dir, 'journal', 'settled', settledFile), past, past);
    for (const name of readdirSync(join(dir, 'journal', 'pending')))
      utimesSync(join(dir, 'journal', 'pending', name), past, past);
    expect(await journal.prune()).toBe(1);
    expect(journal.find(old.client_request_id)).toBeUndefined();
    expect(journal.pendingCount()).toBe(1);
    // A second prune the same day does no work.
    clock.advance(3_600_000);
    expect(await journal.prune()).toBe(0);
  });

  it('never stores the API key, only a one-way id', async () => {
    expect(keyIdOf('ak_live_1')).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(keyIdOf('ak_live_1')).not.toContain('ak_live_1');
  });
});
