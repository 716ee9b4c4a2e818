/**
 * How far back the order list is read, on a list served a page of one order at a time (the reading stops at
 * the first page that ends before its oldest moment):
 * - `order recover` reads an hour before the oldest record was journaled: the host's clock may run ahead of
 *   the server's, so a request committed 20 minutes "before" it was journaled is still found, and resent
 *   without a question;
 * - the 409 look-up (batch, ensure) reads back to the window it is given and no further: an order with the
 *   id older than that answered an earlier need, and is not taken for this one's.
 */
import { describe, expect, it } from 'vitest';
import type { CreatedOrder } from '../../../src/client/client.js';
import { orderRequestBody } from '../../../src/client/client.js';
import type { Order, OrderList } from '../../../src/client/types.js';
import { ApiError } from '../../../src/domain/errors.js';
import { orderBehindConflict } from '../../../src/ordering/conflict-order.js';
import { recoverRecords } from '../../../src/ordering/recover.js';
import { flowDeps } from '../../helpers/flow-deps.js';
import { MemoryJournal, journalRecord } from '../../helpers/memory-journal.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const MINUTE = 60_000;

/** A server whose list holds these orders (newest first), one to a page. */
class OnePerPage {
  readonly posted: string[] = [];
  constructor(readonly orders: Order[]) {}

  async *orderPages(): AsyncGenerator<OrderList> {
    for (const [index, order] of this.orders.entries()) {
      yield { items: [order], next_cursor: index + 1 < this.orders.length ? `c${index + 1}` : null };
    }
  }

  async listOrders(): Promise<OrderList> {
    return { items: this.orders, next_cursor: null };
  }

  async sendOrderBody(body: string): Promise<CreatedOrder> {
    this.posted.push(body);
    const id = (JSON.parse(body) as { client_request_id: string }).client_request_id;
    return { order: this.orders.find((order) => order.client_request_id === id)!, created: false };
  }
}

describe('order recover on a host 20 minutes fast', () => {
  const journaledAt = Date.parse('2026-11-23T09:00:00.000Z');
  const ID = '33333333-3333-4333-8333-333333333333';
  const body = orderRequestBody({
    client_request_id: ID,
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    energy: 65000,
    duration_hours: 1,
    expected_total_trx: '3.700000',
  });

  it('finds the request the server committed 20 min before the journal says it was sent: resent without a question', async () => {
    const client = new OnePerPage([
      sampleOrder({ id: 'o-2', client_request_id: 'someone-else', created_at: journaledAt - 10 * MINUTE }),
      sampleOrder({ id: 'o-1', client_request_id: ID, created_at: journaledAt - 20 * MINUTE }),
    ]);
    const journal = new MemoryJournal();
    const record = journalRecord(ID, body);
    journal.records.set(ID, record);
    const { deps, notes } = flowDeps(client, journal);
    // No --yes and nobody to ask: only a request the server shows may be resent.
    const { items, failure } = await recoverRecords(deps, [record], false);
    expect(failure).toBeUndefined();
    expect(items).toMatchObject([{ client_request_id: ID, outcome: 'existing', order: { id: 'o-1' } }]);
    expect(client.posted).toEqual([body]);
    expect(notes.join('\n')).not.toContain('do not show');
  });
});

describe('the 409 look-up reads back to its window, no further', () => {
  const conflict = new ApiError(409, 'POST /v1/energy/orders failed: CONFLICT', undefined);
  const windowStart = Date.parse('2026-11-23T08:00:00Z');
  // The request the 409 answered: the sample order's own rental, so only the id and the time decide.
  const wanted = { address: sampleOrder().address, duration_hours: sampleOrder().duration_hours, energy: undefined };

  it("an order with the id from 30 min before the window is not this need's: undefined (the 409 stands)", async () => {
    const client = new OnePerPage([
      sampleOrder({ id: 'o-2', client_request_id: 'other', created_at: windowStart - 10 * MINUTE }),
      sampleOrder({ id: 'o-1', client_request_id: 'need-1', created_at: windowStart - 30 * MINUTE }),
    ]);
    expect(await orderBehindConflict(client, 'need-1', conflict, windowStart, wanted)).toBeUndefined();
  });

  it('one inside the window, behind an older page: found', async () => {
    const client = new OnePerPage([
      sampleOrder({ id: 'o-2', client_request_id: 'other', created_at: windowStart + 20 * MINUTE }),
      sampleOrder({ id: 'o-1', client_request_id: 'need-1', created_at: windowStart + 10 * MINUTE }),
    ]);
    expect(await orderBehindConflict(client, 'need-1', conflict, windowStart, wanted)).toMatchObject({ id: 'o-1' });
  });
});
