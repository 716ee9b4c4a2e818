/**
 * `order pending`'s run with its services passed in: the state store's pending records, no credentials (no
 * journal of this profile), and the clock a test sets. A 1-hour order's record is past its term 1 h 15 min after
 * it was journaled (docs: its hours + 15 minutes), and said so.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { orderPendingRun } from '../../../src/commands/order-pending.js';
import type { StateStore } from '../../../src/state/state-store.js';
import { Printer } from '../../../src/output/printer.js';
import { journalRecord } from '../../helpers/memory-journal.js';

const JOURNALED = Date.parse('2026-11-23T09:00:00.000Z');
const BODY =
  '{"address":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t","energy":65000,"duration_hours":1,"expected_total_trx":"2.600000","client_request_id":"topup-7"}';

async function pending(nowMs: number, json: boolean) {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  const state = {
    kind: 'folder',
    allPending: async () => ({ records: [journalRecord('topup-7', BODY)], unreadable: [] }),
  };
  await orderPendingRun({
    state: async () => state as unknown as StateStore,
    journal: async () => Promise.reject(new Error('no credentials')),
    printer: new Printer({ stdout, stderr, stdin: new PassThrough(), env: { COLUMNS: '200' } }, json),
    invocation: (...words) => ['energy', ...words].join(' '),
    profiles: { profileNames: async () => [], findProfile: async () => undefined },
    nowMs: () => nowMs,
  });
  return { stdout: String(stdout.read() ?? ''), stderr: String(stderr.read() ?? '') };
}

describe('order pending on a clock the test sets', () => {
  it.each([
    { minutes: 74, age: 4440, past: false },
    { minutes: 76, age: 4560, past: true },
  ])('$minutes min after it was journaled: past its term $past', async ({ minutes, age, past }) => {
    const { stdout } = await pending(JOURNALED + minutes * 60_000, true);
    expect(JSON.parse(stdout).items).toEqual([
      expect.objectContaining({
        client_request_id: 'topup-7',
        age_seconds: age,
        past_term: past,
        settleable_here: null,
      }),
    ]);
  });

  it('says which record is past its term, in whole hours', async () => {
    const { stderr } = await pending(JOURNALED + 150 * 60_000, false);
    expect(stderr).toContain(
      'energy: topup-7 was journaled 2 h ago, past its term: ensure no longer counts it in flight; settle it with `energy order recover`',
    );
  });
});
