/** Follows an order until it is final, polling at a steady interval. */
import { WaitTimeoutError } from '../domain/errors.js';
import { sleep } from '../domain/sleep.js';
import type { EnergyClient } from './client.js';
import type { Order } from './types.js';

export interface WaitOptions {
  intervalMs: number;
  timeoutMs: number;
  /** Called with each order read whose status differs from the one before. */
  onChange?: (order: Order) => void;
  nowMs?: () => number;
  sleepMs?: (ms: number) => Promise<unknown>;
}

/**
 * Nothing more will happen to the order's delivery: delivered, over, or failed. Decides only on what the
 * spec defines, never on a status name, since the spec does not list them.
 */
export function isFinal(order: Order): boolean {
  return order.delivery_final || order.lifecycle_final || order.failure !== null;
}

/** A final order that did not deliver: it failed, or its lifecycle ended without delivery. */
export function endedUndelivered(order: Order): boolean {
  return order.failure !== null || (order.lifecycle_final && !order.delivery_final);
}

/** Resolves with the first reading that is final (see `isFinal`). */
export async function waitUntilFinal(client: EnergyClient, initial: Order, options: WaitOptions): Promise<Order> {
  const now = options.nowMs ?? Date.now;
  const deadline = now() + options.timeoutMs;
  let order = initial;
  while (!isFinal(order)) {
    if (now() >= deadline) {
      throw new WaitTimeoutError(order.id, options.timeoutMs / 1000, order.status);
    }
    await (options.sleepMs ?? sleep)(options.intervalMs);
    const next = await client.getOrder(order.id);
    if (next.status !== order.status) options.onChange?.(next);
    order = next;
  }
  return order;
}
