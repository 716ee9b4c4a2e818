/** ordering/create: which request is sent (if any), after which quote and consent, and what the journal keeps. */
import { describe, expect, it } from 'vitest';
import { orderRequestBody } from '../../../src/client/client.js';
import { ApiError, AuthError, CliError, ExitCode, NetworkError } from '../../../src/domain/errors.js';
import type { Outcome } from '../../../src/journal/record.js';
import { createOrder, type CreateRequest } from '../../../src/ordering/create.js';
import { createFlowDeps } from '../../helpers/flow-deps.js';
import { MemoryJournal, journalRecord } from '../../helpers/memory-journal.js';
import { FakeClient, type PostAnswer } from './fakes.js';

const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const OTHER = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const base: CreateRequest = { address: ADDRESS, energy: 65000, hours: 1, yes: false };
const body = (id: string, total = '3.700000', address = ADDRESS) =>
  orderRequestBody({ client_request_id: id, address, energy: 65000, duration_hours: 1, expected_total_trx: total });
// The same request written by another program in another key order: it must be resent as it is.
const reordered = (id: string) =>
  `{"expected_total_trx":"3.700000","duration_hours":1,"energy":65000,"address":"${ADDRESS}","client_request_id":"${id}"}`;
const created = (id: string): Outcome => ({ kind: 'created', at: '2026-11-23T09:00:01.000Z', order_id: id });
const uncertain = new NetworkError('timed out after 30000 ms', { outcomeUncertain: true });

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
    const { deps, notes } = createFlowDeps(client, journal);
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

describe('createOrder run again after an interrupt (no --client-request-id)', () => {
  const EARLIER = '11111111-1111-4111-8111-111111111111';
  const setUp = (
    script: ConstructorParameters<typeof FakeClient>[0] = {},
    earlier = { id: EARLIER, body: body(EARLIER) },
  ) => {
    const client = new FakeClient(script);
    const journal = new MemoryJournal();
    journal.records.set(earlier.id, journalRecord(earlier.id, earlier.body));
    const { deps, notes } = createFlowDeps(client, journal);
    return { client, journal, notes, deps };
  };

  it.each([
    ['answered 200 with its running order', 'existing'],
    ['placed by the resend (201)', 'created'],
  ] as const)(
    'settles the earlier request first; %s, that order is this run’s: no quote, no second order',
    async (_name, answer) => {
      const { client, journal, notes, deps } = setUp({ answers: [answer] });
      const result = await createOrder(deps, { ...base, yes: true });
      expect(client.posted).toEqual([body(EARLIER)]);
      expect(client.quotes).toHaveLength(0);
      expect(result.order.client_request_id).toBe(EARLIER);
      expect(journal.find(EARLIER)?.outcome?.kind).toBe(answer);
      expect(journal.find('new-id')).toBeUndefined();
      expect(notes.join('\n')).toContain(`client_request_id ${EARLIER}`);
    },
  );

  it('the earlier order has ended: settled, then this run places its own', async () => {
    const { client, journal, deps } = setUp({ answers: ['existing', 'created'], order: { lifecycle_final: true } });
    await createOrder(deps, { ...base, yes: true });
    expect(client.posted).toEqual([body(EARLIER), body('new-id')]);
    expect(journal.find(EARLIER)?.outcome?.kind).toBe('existing');
    expect(journal.find('new-id')?.outcome?.kind).toBe('created');
  });

  it('the earlier request is refused (it placed nothing): this run places its own', async () => {
    const { client, journal, deps } = setUp({ answers: [new ApiError(409, 'price changed', undefined), 'created'] });
    await createOrder(deps, { ...base, yes: true });
    expect(client.posted).toEqual([body(EARLIER), body('new-id')]);
    expect(journal.find(EARLIER)?.outcome?.kind).toBe('refused');
  });

  it('its outcome is still unknown: stops naming order recover, no second order', async () => {
    const { client, journal, deps } = setUp({ answers: [uncertain] });
    const run = createOrder(deps, { ...base, yes: true });
    await expect(run).rejects.toSatisfy((e) => e instanceof CliError && e.hint!.includes(`order recover ${EARLIER}`));
    expect(client.posted).toEqual([body(EARLIER)]);
    expect(journal.find(EARLIER)?.outcome).toBeNull();
  });

  it('without consent in a script: exit 2 naming order recover, nothing sent', async () => {
    const { client, deps } = setUp();
    const run = createOrder(deps, base);
    await expect(run).rejects.toSatisfy(
      (e) => e instanceof CliError && e.exitCode === ExitCode.usage && e.hint!.includes(`order recover ${EARLIER}`),
    );
    expect(client.posted).toEqual([]);
  });

  it('--expected-total below the journaled total is no consent to it: exit 5, nothing sent', async () => {
    const { client, deps } = setUp();
    const run = createOrder(deps, { ...base, expectedTotal: '3.000000' });
    await expect(run).rejects.toSatisfy((e) => e instanceof CliError && e.exitCode === ExitCode.conflict);
    expect(client.posted).toEqual([]);
  });

  it.each([
    ['another rental', { id: EARLIER, body: body(EARLIER, '3.700000', OTHER) }, {}],
    ['an id order create did not choose (ensure, a script)', { id: 'ensure-abc', body: body('ensure-abc') }, {}],
    ['a new --client-request-id', { id: EARLIER, body: body(EARLIER) }, { clientRequestId: 'another-order' }],
  ])('%s: not this run’s; a new order beside it', async (_name, earlier, request) => {
    const { client, deps } = setUp({}, earlier);
    await createOrder(deps, { ...base, yes: true, ...request });
    expect(client.posted).toHaveLength(1);
    expect(JSON.parse(client.posted[0]!)).toMatchObject({ address: ADDRESS });
    expect(client.posted[0]).not.toBe(earlier.body);
  });
});

describe('createOrder when the options say intake_enabled: false', () => {
  it.each([
    ['after a quote', { yes: true }, 1],
    ['with --expected-total (no quote)', { expectedTotal: '3.700000' }, 0],
  ])('%s: exit 5 before any order, nothing journaled', async (_name, request, quotes) => {
    const client = new FakeClient({ intake: false });
    const journal = new MemoryJournal();
    const { deps } = createFlowDeps(client, journal);
    const run = createOrder(deps, { ...base, ...request });
    await expect(run).rejects.toSatisfy(
      (e) => e instanceof CliError && e.exitCode === ExitCode.conflict && /intake_enabled: false/.test(e.message),
    );
    expect(client.optionsRead).toBe(1);
    expect(client.quotes).toHaveLength(quotes);
    expect(client.posted).toEqual([]);
    expect(journal.records.size).toBe(0);
  });

  it('options that cannot be read: a note, and the order endpoint decides', async () => {
    const client = new FakeClient({
      optionsError: new ApiError(503, 'GET /v1/energy/options failed: HTTP 503', undefined),
    });
    const { deps, notes } = createFlowDeps(client, new MemoryJournal());
    await createOrder(deps, { ...base, yes: true });
    expect(client.posted).toHaveLength(1);
    expect(notes.join('\n')).toMatch(
      /could not read the options to check intake \(GET \/v1\/energy\/options failed: HTTP 503\)/,
    );
  });

  it('options that get no answer (the network, TLS): the run ends there, nothing journaled or sent', async () => {
    const client = new FakeClient({ optionsError: new NetworkError('GET /v1/energy/options: connection refused') });
    const journal = new MemoryJournal();
    const { deps } = createFlowDeps(client, journal);
    await expect(createOrder(deps, { ...base, expectedTotal: '3.700000' })).rejects.toBeInstanceOf(NetworkError);
    expect(client.posted).toEqual([]);
    expect(journal.records.size).toBe(0);
  });

  it('a fixed --client-request-id already journaled still gets its order back (the contract’s cron promise)', async () => {
    const client = new FakeClient({ intake: false, answers: ['existing'] });
    const journal = new MemoryJournal();
    journal.records.set('cron-1', journalRecord('cron-1', body('cron-1'), created('o-1')));
    const { deps } = createFlowDeps(client, journal);
    await createOrder(deps, { ...base, clientRequestId: 'cron-1' });
    expect(client.posted).toEqual([body('cron-1')]);
  });
});
