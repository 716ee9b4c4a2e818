/** ordering/recover: which records are resent, after which consent, and what each one's outcome is. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { orderRequestBody } from '../../../src/client/client.js';
import { ApiError, ExitCode, NetworkError } from '../../../src/domain/errors.js';
import { recoverRecords } from '../../../src/ordering/recover.js';
import { sampleOrder } from '../../helpers/sample-order.js';
import { flowDeps } from '../../helpers/flow-deps.js';
import { MemoryJournal, journalRecord } from '../../helpers/memory-journal.js';
import { FakeClient, type PostAnswer } from './fakes.js';

const body = (id: string) =>
  orderRequestBody({
    client_request_id: id,
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    energy: 65000,
    duration_hours: 1,
    expected_total_trx: '3.700000',
  });
const uncertain = new NetworkError('connection reset', { outcomeUncertain: true });
// Each its own order id: a reading of the list counts an id once.
const listed = (id: string) =>
  sampleOrder({ id: randomUUID(), client_request_id: id, created_at: Date.parse('2026-11-23T09:00:00Z') });

interface Case {
  name: string;
  ids: string[];
  /** client_request_ids the server's newest orders show. */
  committed?: string[];
  yes?: boolean;
  answers?: PostAnswer[];
  pageError?: Error;
  outcomes: string[];
  posted: number;
  exitCode?: number;
  /** A consent note (or question) was said before anything was sent. */
  asked: boolean;
}

const cases: Case[] = [
  {
    name: 'a request the server shows is resent without a question',
    ids: ['a'],
    committed: ['a'],
    answers: ['existing'],
    outcomes: ['existing'],
    posted: 1,
    asked: false,
  },
  {
    name: 'a request the server does not show needs consent: none in a script, nothing sent (exit 2)',
    ids: ['a'],
    outcomes: [],
    posted: 0,
    exitCode: ExitCode.usage,
    asked: true,
  },
  { name: 'with --yes it is placed now', ids: ['a'], yes: true, outcomes: ['created'], posted: 1, asked: true },
  {
    name: 'one of two unsettled: exit 9, the other stands and the unknown one stays pending',
    ids: ['a', 'b'],
    committed: ['a', 'b'],
    answers: ['existing', uncertain],
    outcomes: ['existing', 'unknown'],
    posted: 2,
    exitCode: ExitCode.someFailed,
    asked: false,
  },
  {
    name: "a single record's own failure is the run's error",
    ids: ['a'],
    committed: ['a'],
    answers: [new ApiError(409, 'conflict', undefined)],
    outcomes: ['refused'],
    posted: 1,
    exitCode: ExitCode.conflict,
    asked: false,
  },
];

describe('recoverRecords', () => {
  it.each(cases)('$name', async (c) => {
    const client = new FakeClient({
      answers: c.answers,
      recent: (c.committed ?? []).map(listed),
      pageError: c.pageError,
    });
    const journal = new MemoryJournal();
    const records = c.ids.map((id) => journalRecord(id, body(id)));
    for (const record of records) journal.records.set(record.client_request_id, record);
    const { deps, notes } = flowDeps(client, journal);
    const run = recoverRecords(deps, records, c.yes === true);
    if (c.outcomes.length === 0) {
      await expect(run).rejects.toMatchObject({ exitCode: c.exitCode });
    } else {
      const { items, failure } = await run;
      expect(items.map((item) => item.outcome)).toEqual(c.outcomes);
      expect(failure?.exitCode).toBe(c.exitCode);
      for (const item of items)
        expect(journal.find(item.client_request_id)?.outcome?.kind ?? 'unknown').toBe(
          item.outcome === 'unknown' ? 'unknown' : item.outcome,
        );
    }
    expect(client.posted).toHaveLength(c.posted);
    expect(notes.some((line) => line.includes('do not show'))).toBe(c.asked);
  });
});
