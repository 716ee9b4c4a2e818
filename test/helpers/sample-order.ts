import type { Order } from '../../src/client/types.js';

/** An order as the API returns one, for tests of what reads or shows orders. */
export function sampleOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: '2b7c1f7e-3f3a-4f1e-9d8c-0a5b6c7d8e9f',
    client_request_id: 'req-1',
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    energy: 65000,
    duration_hours: 1,
    total_trx: '2.600000',
    status: 'pending',
    lifecycle_final: false,
    delivery_final: false,
    created_at: 1,
    updated_at: 1,
    failure: null,
    ...overrides,
  };
}
