/**
 * The journal at its edges: damaged records are reported (never skipped in silence), a journal that
 * cannot be written says so with a contract exit code (never "internal error"), and prune sweeps the
 * temporary files a kill left behind.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedOrder } from '../../../../src/client/client.js';
import { CliError, ExitCode } from '../../../../src/domain/errors.js';
import { Journal, pendingRecordsIn } from '../../../../src/state/folder/journal.js';
import { keyIdOf } from '../../../../src/journal/record.js';
import { sendJournaled } from '../../../../src/ordering/send-journaled.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-journal-damage-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const scope = { origin: 'https://api.example.com', keyId: keyIdOf('ak_live_1') };
const body = (id: string) =>
  JSON.stringify({ client_request_id: id, address: 'T…', energy: 65000, duration_hours: 1, expected_total_trx: '3.7' });
const pendingDir = () => join(dir, 'journal', 'pending');

async function caught(promise: Promise<unknown>): Promise<CliError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CliError);
  return error as CliError;
}

describe('a damaged pending record', () => {
  const damages: [string, (text: string) => string, RegExp][] = [
    ['empty', () => '', /empty/],
    ['truncated', (text) => text.slice(0, text.length / 2), /not valid JSON/],
    ['garbled', (text) => text.replace('"client_request_id"', '"cl!ent"'), /not a journal record/],
    ['from a newer version', (text) => text.replace('"version": 1', '"version": 2'), /newer version.*2/],
    // The record parses; the order inside its body does not (recordedOrder() used to throw: exit 1).
    [
      'with a garbled body',
      (text) => text.replace('\\"energy\\":65000', '\\"energy\\":\\"lots\\"'),
      /order body is garbled/,
    ],
    ['with a body that is not JSON', (text) => text.replace(/"body": "\{/, '"body": "}{'), /order body is garbled/],
  ];
  for (const [name, damage, reason] of damages) {
    it(`${name}: listed with its path and why, and its id refused with exit 5, not 1`, async () => {
      const journal = new Journal(dir, scope);
      await journal.begin('x', body('x'));
      const [file] = readdirSync(pendingDir());
      const path = join(pendingDir(), file!);
      const text = (await import('node:fs')).readFileSync(path, 'utf8');
      writeFileSync(path, damage(text));

      expect(pendingRecordsIn(dir)).toEqual({
        records: [],
        unreadable: [{ path, reason: expect.stringMatching(reason) }],
      });
      expect(journal.unreadablePending()).toEqual([{ path, reason: expect.stringMatching(reason) }]);
      expect(journal.unreadableFor('x')?.path).toBe(path);
      const error = await caught(journal.begin('x', body('x')));
      expect(error.exitCode).toBe(ExitCode.conflict);
      expect(error.message).toMatch(/client_request_id x is unreadable.*nothing was sent/);
      expect(error.hint).toContain(path);
    });
  }
});

describe('a journal that cannot be written', () => {
  it('before a send: exit 2 naming the folder and "nothing was sent"', async () => {
    mkdirSync(join(dir, 'journal'), { recursive: true, mode: 0o700 });
    // A file where the pending folder must be: fails for root too (permission bits would not).
    writeFileSync(join(dir, 'journal', 'pending'), '', { mode: 0o600 });
    const error = await caught(new Journal(dir, scope).begin('x', body('x')));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toMatch(/journal.*nothing was sent/);
  });

  it('after a send: exit 7 naming the order id and `order recover`, the record still pending', async () => {
    mkdirSync(join(dir, 'journal', 'pending'), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'journal', 'settled'), '', { mode: 0o600 });
    const journal = new Journal(dir, scope);
    const { record } = await journal.begin('x', body('x'));
    let sent = 0;
    const client = {
      sendOrderBody: async () => {
        sent += 1;
        return { created: true, order: { id: 'ord_123' } } as unknown as CreatedOrder;
      },
    };
    const sender = { client, journal, recoverCommand: (id: string) => `energy order recover ${id}` };
    const error = await caught(sendJournaled(sender, record));
    expect(sent).toBe(1);
    expect(error.exitCode).toBe(ExitCode.service);
    expect(error.message).toMatch(/order ord_123 was placed \(client_request_id x\)/);
    expect(error.hint).toContain('energy order recover x');
    expect(journal.pending().map((r) => r.client_request_id)).toEqual(['x']);
  });
});

describe('prune', () => {
  it('sweeps temporary files older than a day from settled/ and pending/, and keeps fresh ones', async () => {
    const journal = new Journal(dir, scope);
    await journal.begin('x', body('x'));
    mkdirSync(join(dir, 'journal', 'settled'), { recursive: true, mode: 0o700 });
    const old = join(dir, 'journal', 'settled', 'abc.json.1.dead.tmp');
    const oldPending = join(pendingDir(), 'abc.json.2.dead.tmp');
    const fresh = join(dir, 'journal', 'settled', 'abc.json.3.live.tmp');
    for (const path of [old, oldPending, fresh]) writeFileSync(path, body('x'), { mode: 0o600 });
    const past = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(old, past, past);
    utimesSync(oldPending, past, past);
    await journal.prune();
    expect(readdirSync(join(dir, 'journal', 'settled'))).toEqual(['abc.json.3.live.tmp']);
    expect(readdirSync(pendingDir()).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(journal.pending()).toHaveLength(1);
  });
});
