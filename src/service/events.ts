/**
 * The events a service raises for `--on-event` (pure): each one JSON object, `event` naming it and `at`
 * its time (ISO, UTC). order_placed carries the order; order_failed the address and the error of an order
 * that could not be placed; low_balance the balance and the floor; cycle_failed, recovered, address_failed
 * and address_recovered once per run of failures (alarms.ts);
 * delivery_failed the address, the order and the server's failure (once per run of failed deliveries at
 * the address: the metric counts each).
 */
import { compareAmounts } from '../domain/money.js';
import type { AlarmEvent } from './alarms.js';
import type { CycleReport } from './service-loop.js';

export type ServiceEvent =
  | { event: 'order_placed'; at: string; address: string; order: object }
  | { event: 'order_failed'; at: string; address: string; error: { exit_code: number; message: string } }
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
  | { event: 'spend_limit_reached'; at: string; max_spend: string; left_trx: string }
  | AlarmEvent;

/**
 * A cycle's order events: each order placed, each order that could not be placed (not one --max-spend
 * refused: spend_limit_reached says that once). Failed cycles and addresses are alarms.ts's, once per run.
 */
export function cycleEvents(report: CycleReport, at: string): ServiceEvent[] {
  return report.items.flatMap((item): ServiceEvent[] => {
    if (item.reason === 'bought' && item.bought !== null)
      return [{ event: 'order_placed', at, address: item.address, order: item.bought }];
    if (item.error !== null && item.to_buy > 0 && item.reason !== 'spend_limit')
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
