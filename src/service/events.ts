/**
 * The events a service raises for `--on-event` (pure): each one JSON object, `event` naming it and `at`
 * its time (ISO, UTC). order_placed carries the order; order_failed the address and the error of an order
 * that could not be placed; cycle_failed the cycle's error; low_balance the balance and the floor;
 * delivery_failed the address, the order and the server's failure (once per run of failed deliveries at
 * the address: the metric counts each).
 */
import { compareAmounts } from '../domain/money.js';
import type { CycleReport } from './service-loop.js';

export type ServiceEvent =
  | { event: 'order_placed'; at: string; address: string; order: object }
  | { event: 'order_failed'; at: string; address: string; error: { exit_code: number; message: string } }
  | { event: 'cycle_failed'; at: string; cycle: number; error: { exit_code: number; message: string } }
  | { event: 'low_balance'; at: string; available_trx: string; min_balance_trx: string }
  | {
      event: 'delivery_failed';
      at: string;
      address: string;
      order_id: string;
      failure: { code: string; message: string } | null;
      /** The cycle from which the next order to the address may be placed. */
      next_order_cycle: number;
    }
  | { event: 'spend_limit_reached'; at: string; max_spend: string; left_trx: string };

/** A cycle's order and failure events. */
export function cycleEvents(report: CycleReport, at: string): ServiceEvent[] {
  if (report.error !== undefined) return [{ event: 'cycle_failed', at, cycle: report.cycle, error: report.error }];
  return report.items.flatMap((item): ServiceEvent[] => {
    if (item.reason === 'bought' && item.bought !== null)
      return [{ event: 'order_placed', at, address: item.address, order: item.bought }];
    if (item.error !== null && item.to_buy > 0)
      return [{ event: 'order_failed', at, address: item.address, error: item.error }];
    return [];
  });
}

/**
 * low_balance when the balance falls below the floor, once: not again until a cycle has found it back at
 * or above the floor (a webhook per cycle while it stays low would drown the one that matters).
 */
export class LowBalanceWatch {
  #low = false;

  constructor(private readonly minBalance: string) {}

  check(available: string, at: string): ServiceEvent | undefined {
    const low = compareAmounts(available, this.minBalance) < 0;
    const raise = low && !this.#low;
    this.#low = low;
    return raise ? { event: 'low_balance', at, available_trx: available, min_balance_trx: this.minBalance } : undefined;
  }
}
