/**
 * An order's status as a pure function of time since creation, so that nothing drifts and no timers run:
 *   pending → delegating (deliverAfterMs/2) → active, delivery_final (deliverAfterMs)
 *           → expired, lifecycle_final (deliverAfterMs + duration_hours × hourMs: the rental starts at delivery).
 * Orders to the failing addresses end at deliverAfterMs as 'failed' instead: SANDBOX_FAILING_ADDRESS with both
 * flags final, SANDBOX_UNDELIVERABLE_ADDRESS with lifecycle_final alone (delivery never became final);
 * SANDBOX_CANCELLED_ADDRESS's end 'cancelled', lifecycle_final alone and no failure object.
 */
import type { Order, OrderFailure } from '../client/types.js';

/** 0 pending, 1 delegating, 2 delivered (active or failed), 3 expired. */
export type Stage = 0 | 1 | 2 | 3;

export interface Timing {
  deliverAfterMs: number;
  hourMs: number;
}

export interface OrderRecord {
  /** Position in creation order; what cursors point at. */
  readonly seq: number;
  readonly id: string;
  readonly clientRequestId: string;
  readonly address: string;
  readonly energy: number;
  readonly durationHours: number;
  readonly totalTrx: string;
  readonly createdMs: number;
  /** How the order fails, if it does: with delivery final, before delivery ever started, or cancelled (no failure object). */
  readonly fails: 'at-delivery' | 'before-delivery' | 'cancelled' | false;
  /** The furthest stage seen; kept so that moving the sandbox clock back never moves an order back. */
  stage: Stage;
  /** Another client's order (SandboxOptions.foreignOrders): shown as given, it never moves on. */
  readonly fixed?: FixedView;
}

/** What a foreign order shows instead of its lifecycle, and the fields of its own the spec does not name. */
export interface FixedView {
  status: string;
  lifecycleFinal: boolean;
  deliveryFinal: boolean;
  failure: OrderFailure | null;
  extra: Readonly<Record<string, unknown>>;
}

const STATUS = ['pending', 'delegating', 'active', 'expired'] as const;
const FAILURES: Record<'at-delivery' | 'before-delivery', OrderFailure> = {
  'at-delivery': {
    code: 'DELEGATION_FAILED',
    message: 'The sandbox never delivers to its failing test address; the held amount was returned to the balance.',
  },
  'before-delivery': {
    code: 'ORDER_ABORTED',
    message:
      'The sandbox never starts delivery to SANDBOX_UNDELIVERABLE_ADDRESS; the held amount was returned to the balance.',
  },
};

/** Milliseconds after creation at which the given stage begins. */
function stageStart(record: OrderRecord, stage: Stage, timing: Timing): number {
  if (stage === 0) return 0;
  if (stage === 1) return timing.deliverAfterMs / 2;
  if (stage === 2) return timing.deliverAfterMs;
  return timing.deliverAfterMs + record.durationHours * timing.hourMs;
}

/** Moves the record to the stage it has reached at `nowMs` and returns that stage. */
export function advance(record: OrderRecord, timing: Timing, nowMs: number): Stage {
  if (record.fixed !== undefined) return record.stage;
  const elapsed = nowMs - record.createdMs;
  const last: Stage = record.fails ? 2 : 3;
  let stage: Stage = record.stage;
  while (stage < last) {
    const next = (stage + 1) as Stage;
    if (elapsed < stageStart(record, next, timing)) break;
    stage = next;
  }
  record.stage = stage;
  return stage;
}

/** The API's view of a record at its current stage (call `advance` first). Times are Unix seconds. */
export function orderView(record: OrderRecord, timing: Timing): Order {
  if (record.fixed !== undefined) return fixedView(record, record.fixed);
  const failed = record.fails !== false && record.stage === 2;
  const cancelled = failed && record.fails === 'cancelled';
  return {
    ...asPlaced(record),
    status: cancelled ? 'cancelled' : failed ? 'failed' : STATUS[record.stage],
    lifecycle_final: failed || record.stage === 3,
    delivery_final: record.stage >= 2 && record.fails !== 'before-delivery' && record.fails !== 'cancelled',
    created_at: Math.floor(record.createdMs / 1000),
    updated_at: Math.floor((record.createdMs + stageStart(record, record.stage, timing)) / 1000),
    failure: failed && !cancelled ? { ...FAILURES[record.fails as 'at-delivery' | 'before-delivery'] } : null,
  };
}

/** What an order keeps from its request, whatever its stage. */
function asPlaced(
  record: OrderRecord,
): Pick<Order, 'id' | 'client_request_id' | 'address' | 'energy' | 'duration_hours' | 'total_trx'> {
  return {
    id: record.id,
    client_request_id: record.clientRequestId,
    address: record.address,
    energy: record.energy,
    duration_hours: record.durationHours,
    total_trx: record.totalTrx,
  };
}

function fixedView(record: OrderRecord, fixed: FixedView): Order {
  const createdAt = Math.floor(record.createdMs / 1000);
  return {
    ...asPlaced(record),
    status: fixed.status,
    lifecycle_final: fixed.lifecycleFinal,
    delivery_final: fixed.deliveryFinal,
    created_at: createdAt,
    updated_at: createdAt,
    failure: fixed.failure === null ? null : { ...fixed.failure },
    ...fixed.extra,
  };
}
