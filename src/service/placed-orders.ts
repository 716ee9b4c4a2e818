/**
 * The service's own orders, followed until final, from the order list's newest pages (one page per 100 orders,
 * back to the oldest one followed; a `GET` each only for those the pages do not show):
 * what was delivered is spent; what failed was refunded (not spent, and its price goes back to the
 * --max-spend ledger), and the address backs off: after its n-th failed delivery in a row, the next order to
 * it waits 2^(n-1) cycles (1, 2, 4 … capped at MAX_HOLD_CYCLES), reset by a delivery that succeeds. A cycle
 * in which the address would buy while it waits fails its item (`delivery_failed`): never bought meanwhile.
 */
import type { EnsureClient, SpendCeilingRule } from '../ensure/ensure-types.js';
import type { Order } from '../client/types.js';
import { endedUndelivered, finalAndFailed, isFinal } from '../client/wait-for-order.js';
import { OrderFailedError } from '../domain/cli-errors.js';
import { printable } from '../domain/printable.js';
import { timestampMs } from '../domain/api-time.js';
import { scanRecentOrders } from '../ordering/find-recent.js';
import type { EnergyClient } from '../client/client.js';
import { FLEET_REACH_MS, type CycleList } from '../ensure/cycle-list.js';

/** Where an order's outcome is told: the --max-spend ledger (a refund gives its price back). */
type Settles = Pick<SpendCeilingRule, 'settle'>;

/** Where the followed orders are read: the list's pages, and by id those the pages do not show. */
type Follows = Pick<EnsureClient, 'getOrder'> &
  Partial<Pick<EnsureClient, 'orderPages' | 'options'> & Pick<EnergyClient, 'serverNowMs'>>;

/** Read back this much before the oldest order followed: the list is the server's, in its own order. */
const LIST_SLACK_MS = 60_000;

/** The longest wait, in cycles, before another order to an address whose deliveries keep failing. */
export const MAX_HOLD_CYCLES = 32;

/**
 * An order of this service's that became final: kept (delivered) or failed (ended undelivered, or final with
 * a failure object). The ledger refunds only the first kind of failure (`endedUndelivered`).
 */
export interface Settled {
  order: Order;
  kept: boolean;
  /** For a failed one: the failures in a row at its address, and the cycle the next order may come. */
  streak?: number;
  nextOrderCycle?: number;
}

interface Backoff {
  streak: number;
  /** No order to the address up to and including this cycle. */
  holdThrough: number;
  last: Order;
}

export class PlacedOrders {
  readonly #unsettled = new Map<string, Order>();
  readonly #backoff = new Map<string, Backoff>();
  #cycle = 0;

  constructor(private readonly ledger?: Settles) {}

  /** True while some order is followed: only then does a cycle ask the API about them. */
  get following(): boolean {
    return this.#unsettled.size > 0;
  }

  /** The orders a cycle placed, to follow from the next cycle on (one that is final already is settled then). */
  placed(orders: readonly Order[]): void {
    for (const order of orders) this.#unsettled.set(order.id, order);
  }

  /** A cycle starts: what holdBack answers is for this cycle. */
  begin(cycle: number): void {
    this.#cycle = cycle;
  }

  /**
   * At a cycle's start: each order followed once more; those now final are settled and returned, all of them in
   * one write to the --max-spend ledger (none: nothing written). Until that write succeeds they stay followed,
   * as the final orders they are now (a failed write is tried again next cycle, without reading them again).
   */
  async settle(client: Follows, list?: CycleList): Promise<Settled[]> {
    const cycle = this.#cycle;
    const finals: Order[] = [];
    const listed = await this.#listed(client, list);
    for (const [id, known] of this.#unsettled) {
      // Read by id at most once a cycle: in-flight.ts counts it on its way from the same answer.
      const byId = () => list?.orderById(id, () => client.getOrder(id)) ?? client.getOrder(id);
      const order = isFinal(known) ? known : (listed.get(id) ?? (await byId()));
      if (!isFinal(order)) continue;
      this.#unsettled.set(id, order);
      finals.push(order);
    }
    // Refunded (its price back under --max-spend) only when it ended undelivered: lifecycle_final without
    // delivery_final, with or without a failure object. A final delivery that failed is kept, yet backs off.
    if (finals.length > 0)
      await this.ledger?.settle(
        finals.map((order) => ({ order, state: endedUndelivered(order) ? 'refunded' : 'kept' })),
      );
    return finals.map((order) => {
      this.#unsettled.delete(order.id);
      return this.#settleOne(order, cycle);
    });
  }

  /** The followed orders not known final, as the list's newest pages show them (back to the oldest of them). */
  async #listed(client: Follows, list: CycleList | undefined): Promise<Map<string, Order>> {
    const open = [...this.#unsettled.values()].filter((order) => !isFinal(order));
    const found = new Map<string, Order>();
    if (open.length === 0 || client.orderPages === undefined) return found;
    const wanted = new Set(open.map((order) => order.id));
    const oldest = open.reduce((least, order) => Math.min(least, timestampMs(order.created_at)), Infinity);
    // The offer too: where this host reads the list for the fleet, it reads the offer beside it (cycle-list.ts).
    const pages = { orderPages: client.orderPages.bind(client), options: client.options?.bind(client) };
    // In a fleet: the cycle's one reading (the fleet's, or this host's, which in-flight then uses again).
    const nowMs = client.serverNowMs?.() ?? oldest;
    const addresses = new Set(open.map((order) => order.address));
    const listing = await list?.read(pages, addresses, oldest - LIST_SLACK_MS, nowMs - FLEET_REACH_MS);
    if (listing !== undefined) {
      for (const order of listing.orders) if (wanted.has(order.id)) found.set(order.id, order);
      return found;
    }
    await scanRecentOrders(pages, oldest - LIST_SLACK_MS, (order) => {
      if (wanted.has(order.id)) found.set(order.id, order);
      return found.size === wanted.size;
    });
    return found;
  }

  /** Why the address must not be bought for in this cycle (it backs off after failed deliveries), or undefined. */
  holdBack(address: string): OrderFailedError | undefined {
    const backoff = this.#backoff.get(address);
    if (backoff === undefined || this.#cycle > backoff.holdThrough) return undefined;
    const { last, streak } = backoff;
    const code = last.failure === null ? 'no delivery' : printable(last.failure.code, 60);
    return new OrderFailedError(
      `order ${printable(last.id, 80)} to ${address} failed at delivery (${code}; its price went back to the balance), ${streak} in a row: no order to ${address} before cycle ${backoff.holdThrough + 1}`,
    );
  }

  #settleOne(order: Order, cycle: number): Settled {
    if (!finalAndFailed(order)) {
      this.#backoff.delete(order.address);
      return { order, kept: true };
    }
    const streak = (this.#backoff.get(order.address)?.streak ?? 0) + 1;
    const holdCycles = Math.min(2 ** (streak - 1), MAX_HOLD_CYCLES);
    this.#backoff.set(order.address, { streak, holdThrough: cycle + holdCycles, last: order });
    return { order, kept: false, streak, nextOrderCycle: cycle + holdCycles + 1 };
  }
}
