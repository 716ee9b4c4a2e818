/**
 * The order book's rentals by address, so that what the node reads of one address (`getaccountresource`'s
 * delegated energy, the traffic's rental spans) costs that address's orders, not the whole account's: at a
 * fleet's size (8 hosts × 1,000 addresses, a few orders each) a walk of every order per read made the sandbox
 * the bottleneck. Only orders that can deliver are indexed (no failing address, no other client's order);
 * `live` keeps those not yet expired: an expired order never counts again (stages never move back).
 */
import { advance, type OrderRecord, type Timing } from './order-lifecycle.js';

interface Rentals {
  /** Every rental of the address, in creation order. */
  all: OrderRecord[];
  /** Those whose stage was below expired when last looked at, in creation order. */
  live: OrderRecord[];
}

export class AddressRentals {
  readonly #byAddress = new Map<string, Rentals>();

  constructor(private readonly timing: Timing) {}

  /** A created order; ignored unless it can deliver. */
  add(record: OrderRecord): void {
    if (record.fails !== false || record.fixed !== undefined) return;
    let rentals = this.#byAddress.get(record.address);
    if (rentals === undefined) {
      rentals = { all: [], live: [] };
      this.#byAddress.set(record.address, rentals);
    }
    rentals.all.push(record);
    rentals.live.push(record);
  }

  /** The address's rentals, every stage, in creation order. */
  all(address: string): readonly OrderRecord[] {
    return this.#byAddress.get(address)?.all ?? [];
  }

  /**
   * Energy delegated now: delivered rentals not expired, each shown once it is `lagMs` old past its delivery
   * (a node that far behind). Rentals found expired leave the live list.
   */
  delegated(address: string, nowMs: number, lagMs: number): number {
    const rentals = this.#byAddress.get(address);
    if (rentals === undefined) return 0;
    let total = 0;
    let kept = 0;
    for (const record of rentals.live) {
      const stage = advance(record, this.timing, nowMs);
      if (stage === 3) continue;
      rentals.live[kept++] = record;
      if (stage === 2 && nowMs - lagMs >= record.createdMs + this.timing.deliverAfterMs) total += record.energy;
    }
    rentals.live.length = kept;
    return total;
  }
}
