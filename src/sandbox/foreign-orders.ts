/**
 * Orders of other clients on the same account (SandboxOptions.foreignOrders) and fields the spec does not
 * name (extraFields): how the sandbox stands for a shared account on a server a version ahead. Checked at
 * start, so that a test's typo fails there and not as a puzzling answer later.
 */
import { isApiAmount } from '../domain/money-text.js';
import { SEED_ADDRESSES } from './catalog.js';
import type { FixedView } from './order-lifecycle.js';
import type { Reply } from './reply.js';
import type { ForeignOrder } from './types.js';

/** Keys a body already has by the spec: an extra field must add, never replace (that would break the spec). */
const DOCUMENTED = new Set([
  'unix_time',
  'available_trx',
  'held_trx',
  'status',
  'energy_per_portion',
  'max_energy',
  'duration_hours',
  'intake_enabled',
  'address',
  'energy',
  'energy_trx',
  'activation_trx',
  'total_trx',
  'can_afford',
  'id',
  'client_request_id',
  'lifecycle_final',
  'delivery_final',
  'created_at',
  'updated_at',
  'failure',
  'items',
  'next_cursor',
]);

/** The fields of a foreign order as the order book keeps them. */
export interface ForeignRecordFields {
  clientRequestId: string;
  address: string;
  energy: number;
  durationHours: number;
  totalTrx: string;
  fixed: FixedView;
}

export function checkExtraFields(name: string, fields: Record<string, unknown> | undefined): Record<string, unknown> {
  if (fields === undefined) return {};
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    throw new RangeError(`${name} must be an object`);
  for (const key of Object.keys(fields)) {
    if (DOCUMENTED.has(key)) throw new RangeError(`${name} must not name the documented field ${key}`);
  }
  return { ...fields };
}

export function foreignRecordFields(order: ForeignOrder, index: number): ForeignRecordFields {
  const name = `foreignOrders[${index}]`;
  if (typeof order.client_request_id !== 'string') throw new RangeError(`${name}.client_request_id must be a string`);
  const totalTrx = order.total_trx ?? '2.600000';
  if (!isApiAmount(totalTrx)) throw new RangeError(`${name}.total_trx must have six decimals, got ${totalTrx}`);
  return {
    clientRequestId: order.client_request_id,
    address: order.address ?? SEED_ADDRESSES[0]!,
    energy: order.energy ?? 65_000,
    durationHours: order.duration_hours ?? 1,
    totalTrx,
    fixed: {
      status: order.status ?? 'expired',
      lifecycleFinal: order.lifecycle_final ?? true,
      deliveryFinal: order.delivery_final ?? true,
      failure: order.failure ?? null,
      extra: checkExtraFields(`${name}.extra`, order.extra),
    },
  };
}

/** A success body with the extra fields added at its top level (orders in it have them from the book). */
export function withExtraFields(reply: Reply, extraFields: Readonly<Record<string, unknown>>): Reply {
  if (reply.status < 200 || reply.status > 299 || Object.keys(extraFields).length === 0) return reply;
  if (reply.headers['content-type'] !== 'application/json') return reply;
  const body = JSON.parse(reply.body) as Record<string, unknown>;
  return { ...reply, body: JSON.stringify({ ...body, ...extraFields }) };
}
