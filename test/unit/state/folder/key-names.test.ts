/**
 * The journal folder's records are the API key's, whatever the base URL's spelling (issue 38 item 4): one
 * account under `http://127.0.0.1:p` and `http://localhost:p`; records named by the earlier scheme (URL and
 * key) renamed once and still found; one id under two spellings kept once, the other set apart readable.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal } from '../../../../src/state/folder/journal.js';
import { nameRecordsByKey, noteSpelling } from '../../../../src/state/folder/key-names.js';
import { keyIdOf, type JournalRecord } from '../../../../src/journal/record.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-keynames-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const keyId = keyIdOf('ak_live_1');
const numeric = { origin: 'http://127.0.0.1:8787', keyId };
const named = { origin: 'http://localhost:8787', keyId };
const body = JSON.stringify({
  client_request_id: 'x',
  address: 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY',
  energy: 65000,
  duration_hours: 1,
  expected_total_trx: '3.700000',
});
const hex = (text: string, length: number) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, length);

/** A record file as the earlier version named it: sha256(origin \n key id) then sha256(id). */
function earlierFile(state: 'pending' | 'settled', record: JournalRecord): string {
  const folder = join(dir, 'journal', state);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const name = `${hex(`${record.origin}\n${record.key_id}`, 16)}-${hex(record.client_request_id, 32)}.json`;
  writeFileSync(join(folder, name), JSON.stringify(record), { mode: 0o600 });
  return name;
}

function record(id: string, origin: string, outcome: JournalRecord['outcome'] = null): JournalRecord {
  return {
    version: 1,
    origin,
    key_id: keyId,
    client_request_id: id,
    body,
    journaled_at: '2026-11-23T09:00:00.000Z',
    last_error: null,
    outcome,
  };
}

describe('records named by the key', () => {
  it('a record begun under one spelling of the URL is the same record under the other', async () => {
    mkdirSync(join(dir, 'journal'), { mode: 0o700 });
    const first = await new Journal(dir, numeric).begin('one', body);
    expect(first.fresh).toBe(true);
    const other = new Journal(dir, named);
    expect(other.find('one')).toEqual(first.record);
    expect(other.pending().map((r) => r.client_request_id)).toEqual(['one']);
    expect(await other.begin('one', body)).toMatchObject({ fresh: false });
  });

  it("the earlier scheme's files are renamed once and found; one id under two spellings is kept once (the one with an order)", () => {
    earlierFile('pending', record('lone', named.origin));
    earlierFile(
      'settled',
      record('both', numeric.origin, { kind: 'created', at: '2026-11-23T09:01:00.000Z', order_id: 'o-1' }),
    );
    earlierFile(
      'settled',
      record('both', named.origin, { kind: 'refused', at: '2026-11-23T09:00:30.000Z', status: 409, code: null }),
    );
    expect(nameRecordsByKey(join(dir, 'journal'))).toEqual({ merged: 1 });
    const journal = new Journal(dir, named);
    expect(journal.find('lone')?.origin).toBe(named.origin);
    expect(journal.find('both')?.outcome).toMatchObject({ kind: 'created', order_id: 'o-1' });
    expect(readdirSync(join(dir, 'journal', 'merged'))).toHaveLength(1);
    // Done once: a marker says so, and a second pass renames nothing.
    expect(existsSync(join(dir, 'journal', 'named-by-key'))).toBe(true);
    expect(nameRecordsByKey(join(dir, 'journal'))).toEqual({ merged: 0 });
  });

  it('says once that a key is used under a second spelling of the URL', () => {
    mkdirSync(join(dir, 'journal'), { mode: 0o700 });
    const notes: string[] = [];
    noteSpelling(join(dir, 'journal'), numeric, (line) => notes.push(line));
    noteSpelling(join(dir, 'journal'), numeric, (line) => notes.push(line));
    expect(notes).toEqual([]);
    noteSpelling(join(dir, 'journal'), named, (line) => notes.push(line));
    noteSpelling(join(dir, 'journal'), named, (line) => notes.push(line));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('used with 1 other spelling(s) of the API');
  });
});
