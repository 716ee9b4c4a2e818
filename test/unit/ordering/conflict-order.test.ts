/** ordering/conflict-order: "409, then look in the list", the rule order batch and ensure share. */
import { describe, expect, it } from 'vitest';
import { ConflictError } from '../../../src/domain/cli-errors.js';
import { ApiError, NetworkError } from '../../../src/domain/errors.js';
import { orderBehindConflict } from '../../../src/ordering/conflict-order.js';
import { sampleOrder } from '../../helpers/sample-order.js';
import { FakeClient } from './fakes.js';

const conflict = new ApiError(409, 'POST /v1/energy/orders failed: CONFLICT: client_request_id in use', undefined);
const listed = sampleOrder({
  id: '7d0c4a52-1b8e-4c39-9f0e-2a6b5c4d3e21',
  client_request_id: 'line-7',
  created_at: Date.parse('2026-11-23T09:00:00Z'),
});
const since = Date.parse('2026-11-23T08:00:00Z');
const wanted = { address: listed.address, energy: listed.energy, duration_hours: listed.duration_hours };

describe('orderBehindConflict', () => {
  it("a 409, and the list shows the id's order: that order", async () => {
    const client = new FakeClient({ recent: [sampleOrder({ client_request_id: 'other' }), listed] });
    expect(await orderBehindConflict(client, 'line-7', conflict, since, wanted)).toEqual(listed);
  });

  it('a 409 and no order with that id in the list: undefined (the 409 stands)', async () => {
    const client = new FakeClient({ recent: [sampleOrder({ client_request_id: 'other' })] });
    expect(await orderBehindConflict(client, 'line-7', conflict, since, wanted)).toBeUndefined();
  });

  it('a 409 and a list that cannot be read now: undefined (the 409 stands)', async () => {
    const client = new FakeClient({ recent: [listed], pageError: new NetworkError('connection reset') });
    expect(await orderBehindConflict(client, 'line-7', conflict, since, wanted)).toBeUndefined();
    expect(client.listed).toBe(1);
  });

  it('any other failure is not looked up: the list is not read', async () => {
    const client = new FakeClient({ recent: [listed] });
    for (const error of [new ApiError(400, 'bad request', undefined), new NetworkError('timed out'), new Error('bug')])
      expect(await orderBehindConflict(client, 'line-7', error, since, wanted)).toBeUndefined();
    expect(client.listed).toBe(0);
  });

  it("an order under the id for another address, energy or hours is not the request's: a ConflictError saying so", async () => {
    const client = new FakeClient({ recent: [listed] });
    for (const other of [
      { ...wanted, address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' },
      { ...wanted, energy: 20_000 },
      { ...wanted, duration_hours: 24 },
    ]) {
      const found = await orderBehindConflict(client, 'line-7', conflict, since, other);
      expect(found).toBeInstanceOf(ConflictError);
      expect((found as ConflictError).message).toBe(
        "client_request_id line-7 is already order 7d0c4a52-1b8e-4c39-9f0e-2a6b5c4d3e21 for TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t, 65,000 energy, 1 h: not this request's, nothing placed",
      );
    }
  });

  it('energy undefined (ensure: hosts size a need otherwise) compares the address and hours only', async () => {
    const client = new FakeClient({ recent: [listed] });
    expect(await orderBehindConflict(client, 'line-7', conflict, since, { ...wanted, energy: undefined })).toEqual(
      listed,
    );
  });
});
