/**
 * `order create` run again after an interrupt: which earlier request is "this same rental" (address, energy
 * and hours, all three), what caps a resend (--max-total as well as --expected-total), and which failed
 * resend lets the run place its own order (a definite refusal only, never a 5xx). Through createOrder with a
 * fake API; each case counts the bytes posted.
 */
import { describe, expect, it } from 'vitest';
import { orderRequestBody } from '../../../src/client/client.js';
import { ApiError, CliError, ExitCode } from '../../../src/domain/errors.js';
import { createOrder, type CreateRequest } from '../../../src/ordering/create.js';
import { createFlowDeps } from '../../helpers/flow-deps.js';
import { MemoryJournal, journalRecord } from '../../helpers/memory-journal.js';
import { FakeClient } from './fakes.js';

const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const EARLIER = '22222222-2222-4222-8222-222222222222';
const base: CreateRequest = { address: ADDRESS, energy: 65000, hours: 1, yes: true };

function earlierBody(fields: { energy?: number; hours?: number; total?: string } = {}): string {
  return orderRequestBody({
    client_request_id: EARLIER,
    address: ADDRESS,
    energy: fields.energy ?? 65000,
    duration_hours: fields.hours ?? 1,
    expected_total_trx: fields.total ?? '3.700000',
  });
}

function setUp(earlier: string, script: ConstructorParameters<typeof FakeClient>[0] = {}) {
  const client = new FakeClient(script);
  const journal = new MemoryJournal();
  journal.records.set(EARLIER, journalRecord(EARLIER, earlier));
  const { deps } = createFlowDeps(client, journal);
  return { client, journal, deps };
}

describe('an earlier request for another rental at the same address is not this run’s', () => {
  it.each([
    ['other energy (130,000)', { energy: 130000 }],
    ['other hours (24)', { hours: 24 }],
  ])('%s: left alone, and this run places its own order', async (_name, fields) => {
    const { client, journal, deps } = setUp(earlierBody(fields), { hours: [1, 24] });
    const result = await createOrder(deps, base);
    expect(client.posted).toEqual([
      `{"client_request_id":"new-id","address":"${ADDRESS}","energy":65000,"duration_hours":1,"expected_total_trx":"3.700000"}`,
    ]);
    expect(result.order.client_request_id).toBe('new-id');
    expect(journal.find(EARLIER)?.outcome).toBeNull();
  });
});

describe('a resend is capped as a new order is', () => {
  it('--max-total below the journaled total: exit 5, nothing sent', async () => {
    const { client, journal, deps } = setUp(earlierBody({ total: '3.700000' }));
    const run = createOrder(deps, { ...base, maxTotal: '3.000000' });
    await expect(run).rejects.toSatisfy(
      (e) => e instanceof CliError && e.exitCode === ExitCode.conflict && /above --max-total 3\.000000/.test(e.message),
    );
    expect(client.posted).toEqual([]);
    expect(journal.find(EARLIER)?.outcome).toBeNull();
  });

  it('--max-total at the journaled total: resent, and that order is this run’s', async () => {
    const { client, deps } = setUp(earlierBody({ total: '3.700000' }), { answers: ['existing'] });
    const result = await createOrder(deps, { ...base, maxTotal: '3.700000' });
    expect(client.posted).toEqual([earlierBody()]);
    expect(result.order.client_request_id).toBe(EARLIER);
  });
});

describe('a resend the server fails with a 5xx', () => {
  it('is no refusal: the run stops with it, and places no second order', async () => {
    const unavailable = new ApiError(503, 'service unavailable', undefined);
    const { client, deps } = setUp(earlierBody(), { answers: [unavailable, 'created'] });
    await expect(createOrder(deps, base)).rejects.toBe(unavailable);
    expect(client.posted).toEqual([earlierBody()]);
    expect(client.quotes).toHaveLength(0);
  });

  it('while a 4xx refusal placed nothing: this run places its own', async () => {
    const refused = new ApiError(422, 'address not activated', undefined);
    const { client, deps } = setUp(earlierBody(), { answers: [refused, 'created'] });
    const result = await createOrder(deps, base);
    expect(client.posted).toHaveLength(2);
    expect(result.order.client_request_id).toBe('new-id');
  });
});
