/** ordering/create: which request is sent (if any), after which quote and consent, and what the journal keeps. */
import { describe, expect, it } from 'vitest';
import { orderRequestBody } from '../../../src/client/client.js';
import { ApiError, AuthError, CliError, ExitCode, NetworkError } from '../../../src/domain/errors.js';
import type { Outcome } from '../../../src/journal/record.js';
import { createOrder, type CreateRequest } from '../../../src/ordering/create.js';
import { FakeClient, MemoryJournal, journalRecord, scriptTerminal, type PostAnswer } from './fakes.js';

const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const OTHER = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const base: CreateRequest = { address: ADDRESS, energy: 65000, hours: 1, yes: false };
const body = (id: string, total = '3.700000', address = ADDRESS) =>
  orderRequestBody({ client_request_id: id, address, energy: 65000, duration_hours: 1, expected_total_trx: total });
// The same request written by another program in another key order: it must be resent as it is.
const reordered = (id: string) =>
  `{"expected_total_trx":"3.700000","duration_hours":1,"energy":65000,"address":"${ADDRESS}","client_request_id":"${id}"}`;
const created = (id: string): Outcome => ({ kind: 'created', at: '2026-11-23T09:00:01.000Z', order_id: id });
const uncertain = Object.assign(new NetworkError('timed out after 30000 ms'), { outcomeUncertain: true });

interface Case {
  name: string;
  request?: Partial<CreateRequest>;
  journaled?: { id: string; body: string; outcome?: Outcome | null };
  answers?: PostAnswer[];
  exitCode?: number;
  quotes: number;
  /** The exact bytes posted, in order. */
  posted: string[];
  /** The outcome the journal keeps for `new-id` (or the journaled id), or null for pending, or absent. */
  kept?: Outcome['kind'] | null | 'absent';
  note?: RegExp;
}

const cases: Case[] = [
  {
    name: 'a new order with --yes: one quote, one POST at the quoted total',
    request: { yes: true },
    quotes: 1,
    posted: [body('new-id')],
    kept: 'created',
  },
  {
    name: 'no consent in a script: nothing journaled, nothing sent (exit 2)',
    exitCode: ExitCode.usage,
    quotes: 1,
    posted: [],
    kept: 'absent',
  },
  {
    name: '--expected-total is consent and the price: no quote',
    request: { expectedTotal: '4.000000' },
    quotes: 0,
    posted: [body('new-id', '4.000000')],
    kept: 'created',
  },
  {
    name: '--max-total below the quote: exit 5, nothing sent',
    request: { yes: true, maxTotal: '3.000000' },
    exitCode: ExitCode.conflict,
    quotes: 1,
    posted: [],
    kept: 'absent',
  },
  {
    name: '--max-total below --expected-total: exit 5 without a quote',
    request: { expectedTotal: '4', maxTotal: '3.9' },
    exitCode: ExitCode.conflict,
    quotes: 0,
    posted: [],
    kept: 'absent',
  },
  {
    name: 'a journaled request of unknown outcome is resent byte for byte, with consent and no quote',
    request: { yes: true, clientRequestId: 'old' },
    journaled: { id: 'old', body: reordered('old') },
    quotes: 0,
    posted: [reordered('old')],
    kept: 'created',
    note: /resending that same request/,
  },
  {
    name: 'a journaled request of unknown outcome needs consent to be resent (exit 2)',
    request: { clientRequestId: 'old' },
    journaled: { id: 'old', body: body('old') },
    exitCode: ExitCode.usage,
    quotes: 0,
    posted: [],
    kept: null,
  },
  {
    name: 'a journaled total above --max-total is not resent (exit 5)',
    request: { yes: true, clientRequestId: 'old', maxTotal: '1' },
    journaled: { id: 'old', body: body('old') },
    exitCode: ExitCode.conflict,
    quotes: 0,
    posted: [],
    kept: null,
  },
  {
    name: 'an id that placed an order is resent without consent and keeps its first outcome',
    request: { clientRequestId: 'old' },
    journaled: { id: 'old', body: body('old'), outcome: created('o-1') },
    answers: ['existing'],
    quotes: 0,
    posted: [body('old')],
    kept: 'created',
    note: /answered 200/,
  },
  {
    name: 'an id used for another address: exit 5, nothing sent',
    request: { yes: true, clientRequestId: 'old' },
    journaled: { id: 'old', body: body('old', '3.700000', OTHER) },
    exitCode: ExitCode.conflict,
    quotes: 0,
    posted: [],
    kept: null,
  },
  {
    name: 'an id the server refused starts afresh with a quote',
    request: { yes: true, clientRequestId: 'old' },
    journaled: {
      id: 'old',
      body: body('old', '9.000000'),
      outcome: { kind: 'refused', at: 'x', status: 409, code: 'PRICE_CHANGED' },
    },
    quotes: 1,
    posted: [body('old')],
    kept: 'created',
  },
  {
    name: 'a 200 answer is said on stderr',
    request: { yes: true },
    answers: ['existing'],
    quotes: 1,
    posted: [body('new-id')],
    kept: 'existing',
    note: /answered 200 \(not 201 Created\)/,
  },
  {
    name: 'no answer after sending: the record stays pending',
    request: { yes: true },
    answers: [uncertain],
    exitCode: ExitCode.service,
    quotes: 1,
    posted: [body('new-id')],
    kept: null,
  },
  {
    name: "the API's 401 is journaled as refused",
    request: { yes: true },
    answers: [new AuthError('bad signature', { status: 401 })],
    exitCode: ExitCode.auth,
    quotes: 1,
    posted: [body('new-id')],
    kept: 'refused',
  },
  {
    name: 'a local credentials problem is not a 401: not sent',
    request: { yes: true },
    answers: [new AuthError('no API credentials')],
    exitCode: ExitCode.auth,
    quotes: 1,
    posted: [body('new-id')],
    kept: 'not-sent',
  },
  {
    name: 'a 409 refusal is journaled as refused',
    request: { yes: true },
    answers: [new ApiError(409, 'price changed', undefined)],
    exitCode: ExitCode.conflict,
    quotes: 1,
    posted: [body('new-id')],
    kept: 'refused',
  },
];

describe('createOrder', () => {
  it.each(cases)('$name', async (c) => {
    const client = new FakeClient({ answers: c.answers });
    const journal = new MemoryJournal();
    if (c.journaled !== undefined)
      journal.records.set(c.journaled.id, journalRecord(c.journaled.id, c.journaled.body, c.journaled.outcome ?? null));
    const notes: string[] = [];
    const deps = {
      client,
      journal,
      terminal: scriptTerminal(),
      note: (line: string) => notes.push(line),
      recoverCommand: (id: string) => `energy order recover ${id}`,
      newRequestId: () => 'new-id',
    };
    const run = createOrder(deps, { ...base, ...c.request });
    if (c.exitCode === undefined) await run;
    else await expect(run).rejects.toSatisfy((e) => e instanceof CliError && e.exitCode === c.exitCode);
    expect(client.quotes).toHaveLength(c.quotes);
    expect(client.posted).toEqual(c.posted);
    const id = c.journaled?.id ?? 'new-id';
    const kept = journal.find(id);
    if (c.kept === 'absent') expect(kept).toBeUndefined();
    else expect(kept?.outcome?.kind ?? null).toBe(c.kept);
    if (c.note !== undefined) expect(notes.join('\n')).toMatch(c.note);
    expect(journal.pruned).toBe(1);
  });
});
