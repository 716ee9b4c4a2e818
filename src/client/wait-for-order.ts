/** Follows an order until it is final, reading it less and less often (1, 2, 4 … up to 15 s apart). */
import { WaitTimeoutError } from '../domain/errors.js';
import { monotonicMs } from '../domain/monotonic.js';
import { sleep } from '../domain/sleep.js';
import type { EnergyClient } from './client.js';
import type { Order } from './types.js';

/** The longest pause between two reads: a 10-minute wait costs about 45 requests, not 600. */
const MAX_POLL_INTERVAL_MS = 15_000;

export interface WaitOptions {
  /** The first pause between reads; each next pause is twice the one before, up to `maxIntervalMs`. */
  intervalMs: number;
  timeoutMs: number;
  /** The longest pause between reads; default MAX_POLL_INTERVAL_MS. */
  maxIntervalMs?: number;
  /** Called with each order read whose status differs from the one before. */
  onChange?: (order: Order) => void;
  nowMs?: () => number;
  sleepMs?: (ms: number) => Promise<unknown>;
}

/**
 * Nothing more will happen to the order's delivery: delivered, or its lifecycle over. Decides only on the
 * spec's two booleans, never on a status name (the spec lists none) nor on a failure object alone: an order
 * that carries one while neither boolean is final may still deliver, so it is followed on (issue 44).
 */
export function isFinal(order: Order): boolean {
  return order.delivery_final || order.lifecycle_final;
}

/**
 * Ended undelivered: `lifecycle_final` without `delivery_final`, with or without a failure object. The one
 * case whose price comes back (a refund under --max-spend, nothing in flight); a failure object on an order
 * not final holds its price until it is.
 */
export function endedUndelivered(order: Order): boolean {
  return order.lifecycle_final && !order.delivery_final;
}

/**
 * Final and failed: ended undelivered, or final with a failure object (a delivery that is final but failed).
 * What exit 8 and a service's back-off follow; a refund follows `endedUndelivered` alone, since an order
 * whose delivery is final may have spent its price.
 */
export function finalAndFailed(order: Order): boolean {
  return endedUndelivered(order) || (isFinal(order) && order.failure !== null);
}

/**
 * Resolves with the first reading that is final (see `isFinal`). Most orders settle within seconds, so the
 * first reads come quickly; one that takes minutes is read every `maxIntervalMs`. The last pause is cut to
 * end at the deadline, so that the timeout is reported on a reading taken then, not up to 15 s later.
 */
export async function waitUntilFinal(
  client: Pick<EnergyClient, 'getOrder'>,
  initial: Order,
  options: WaitOptions,
): Promise<Order> {
  // A deadline is an interval: on the monotonic clock, which a host clock stepping back cannot stretch.
  const now = options.nowMs ?? monotonicMs;
  const deadline = now() + options.timeoutMs;
  const longest = Math.max(options.intervalMs, options.maxIntervalMs ?? MAX_POLL_INTERVAL_MS);
  let pause = options.intervalMs;
  let order = initial;
  while (!isFinal(order)) {
    const left = deadline - now();
    if (left <= 0) throw new WaitTimeoutError(order.id, options.timeoutMs / 1000, order.status);
    await (options.sleepMs ?? sleep)(Math.min(pause, left));
    pause = Math.min(pause * 2, longest);
    const next = await client.getOrder(order.id);
    if (next.status !== order.status) options.onChange?.(next);
    order = next;
  }
  return order;
}
