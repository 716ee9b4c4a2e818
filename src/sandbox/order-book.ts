/**
 * Orders and the balance they hold. Sequence numbers count seeded orders first, then created ones, which live
 * in an array in creation order (paging is a slice, not a scan) with maps for lookup by id and client_request_id,
 * and by address for what the node shows (address-rentals.ts).
 */
import { randomUUID } from 'node:crypto';
import type { CreateOrderRequest, Order } from '../client/types.js';
import { addAmounts, subtractAmounts } from '../domain/money.js';
import { AddressRentals } from './address-rentals.js';
import { SANDBOX_CANCELLED_ADDRESS, SANDBOX_FAILING_ADDRESS, SANDBOX_UNDELIVERABLE_ADDRESS } from './catalog.js';
import type { ForeignRecordFields } from './foreign-orders.js';
import { advance, orderView, type OrderRecord, type Timing } from './order-lifecycle.js';
import { SeededOrders } from './seeded-orders.js';
import type { RentalSpan } from './traffic.js';

export interface Page {
  records: OrderRecord[];
  /** Sequence number where the next page starts, or null on the last page. */
  nextSeq: number | null;
}

export class OrderBook {
  /** Created orders; the one with sequence number `seq` is at index `seq - seeded.count`. */
  private readonly records: OrderRecord[] = [];
  private readonly seeded: SeededOrders;
  private readonly byId = new Map<string, OrderRecord>();
  private readonly byClientId = new Map<string, OrderRecord>();
  /** Orders whose held amount is not settled yet: few, so that settling on every request stays cheap. */
  private readonly unsettled = new Set<OrderRecord>();
  private readonly activated = new Set<string>();
  /** The rentals of each address, so that a node's read of one address costs its orders alone. */
  private readonly rentals: AddressRentals;
  /** Fields the spec does not name, on every order shown (SandboxOptions.extraFields). */
  private readonly extraFields: Readonly<Record<string, unknown>>;
  /** Seconds added to every order's stamps (SandboxOptions.stampsAheadSeconds). */
  private readonly stampsAheadSeconds: number;
  available: string;
  held = '0.000000';

  constructor(
    private readonly timing: Timing,
    startingBalance: string,
    seedCount: number,
    nowMs: number,
    history: {
      foreign?: readonly ForeignRecordFields[];
      extraFields?: Readonly<Record<string, unknown>>;
      stampsAheadSeconds?: number;
    } = {},
  ) {
    this.available = startingBalance;
    this.rentals = new AddressRentals(timing);
    this.seeded = new SeededOrders(seedCount, timing, nowMs);
    for (const address of this.seeded.activatedAddresses) this.activated.add(address);
    this.extraFields = history.extraFields ?? {};
    this.stampsAheadSeconds = history.stampsAheadSeconds ?? 0;
    // Other clients' orders: the newest history at start, a second apart, final as given; no money moves.
    const foreign = history.foreign ?? [];
    foreign.forEach((fields, index) => {
      const createdMs = nowMs - (foreign.length - index) * 1000;
      this.add({ ...fields, createdMs, fails: false, stage: 3 });
    });
  }

  get size(): number {
    return this.seeded.count + this.records.length;
  }

  /** Brings orders up to `nowMs`: a delivered order spends its hold, a failed one returns it. */
  settle(nowMs: number): void {
    for (const record of this.unsettled) {
      if (advance(record, this.timing, nowMs) < 2) continue;
      this.unsettled.delete(record);
      this.held = subtractAmounts(this.held, record.totalTrx);
      if (record.fails !== false) this.available = addAmounts(this.available, record.totalTrx);
      else this.activated.add(record.address);
    }
  }

  isActivated(address: string): boolean {
    return this.activated.has(address);
  }

  /** An address activated on chain by other means (the TRON node's seeded accounts). */
  markActivated(address: string): void {
    this.activated.add(address);
  }

  /** Energy delegated to an address now: its delivered orders that have not expired (what the chain shows). */
  delegatedEnergy(address: string, nowMs: number, lagMs = 0): number {
    // A node `lagMs` behind shows a delivery once it is that old.
    return this.rentals.delegated(address, nowMs, lagMs);
  }

  /** The address's rentals that deliver (none of the failing ones), whatever their stage. */
  rentalSpans(address: string): RentalSpan[] {
    const { deliverAfterMs, hourMs } = this.timing;
    return this.rentals.all(address).map((record) => {
      const startMs = record.createdMs + deliverAfterMs;
      return { id: record.id, energy: record.energy, startMs, endMs: startMs + record.durationHours * hourMs };
    });
  }

  findById(id: string): OrderRecord | undefined {
    const seq = this.seeded.seqOfId(id);
    return seq === undefined ? this.byId.get(id) : this.seeded.record(seq);
  }

  findByClientRequestId(clientRequestId: string): OrderRecord | undefined {
    const seq = this.seeded.seqOfClientRequestId(clientRequestId);
    return seq === undefined ? this.byClientId.get(clientRequestId) : this.seeded.record(seq);
  }

  /** Creates an order and moves its total from available to held; the caller has checked the balance. */
  create(request: CreateOrderRequest, totalTrx: string, nowMs: number): OrderRecord {
    const record = this.add({
      clientRequestId: request.client_request_id,
      address: request.address,
      energy: request.energy,
      durationHours: request.duration_hours,
      totalTrx,
      createdMs: nowMs,
      fails: failureOf(request.address),
      stage: 0,
    });
    this.available = subtractAmounts(this.available, totalTrx);
    this.held = addAmounts(this.held, totalTrx);
    this.unsettled.add(record);
    return record;
  }

  /** Newest first (or oldest first), starting at sequence `fromSeq` (inclusive) or at the newest (oldest) order. */
  page(fromSeq: number | undefined, limit: number, oldestFirst = false): Page {
    if (oldestFirst) {
      const first = fromSeq ?? 0;
      const last = Math.min(first + limit, this.size) - 1;
      const records: OrderRecord[] = [];
      for (let seq = first; seq <= last; seq += 1) {
        const record = this.recordAt(seq);
        if (record !== undefined) records.push(record);
      }
      return { records, nextSeq: last < this.size - 1 ? last + 1 : null };
    }
    const start = fromSeq ?? this.size - 1;
    const end = Math.max(start - limit + 1, 0);
    const records: OrderRecord[] = [];
    for (let seq = start; seq >= end; seq -= 1) {
      const record = this.recordAt(seq);
      if (record !== undefined) records.push(record);
    }
    return { records, nextSeq: end > 0 ? end - 1 : null };
  }

  view(record: OrderRecord, nowMs: number): Order {
    advance(record, this.timing, nowMs);
    const order = orderView(record, this.timing);
    const ahead = this.stampsAheadSeconds;
    return {
      ...order,
      created_at: order.created_at + ahead,
      updated_at: order.updated_at + ahead,
      ...this.extraFields,
    };
  }

  /** Every order, newest first. O(n): for tests, not for request handling. */
  snapshot(nowMs: number): Order[] {
    const orders: Order[] = [];
    for (let seq = this.size - 1; seq >= 0; seq -= 1) {
      const record = this.recordAt(seq);
      if (record !== undefined) orders.push(this.view(record, nowMs));
    }
    return orders;
  }

  private recordAt(seq: number): OrderRecord | undefined {
    return seq < this.seeded.count ? this.seeded.record(seq) : this.records[seq - this.seeded.count];
  }

  private add(fields: Omit<OrderRecord, 'seq' | 'id'>): OrderRecord {
    const record: OrderRecord = { ...fields, seq: this.size, id: randomUUID() };
    this.records.push(record);
    this.byId.set(record.id, record);
    this.byClientId.set(record.clientRequestId, record);
    this.rentals.add(record);
    return record;
  }
}

function failureOf(address: string): OrderRecord['fails'] {
  if (address === SANDBOX_FAILING_ADDRESS) return 'at-delivery';
  if (address === SANDBOX_CANCELLED_ADDRESS) return 'cancelled';
  return address === SANDBOX_UNDELIVERABLE_ADDRESS ? 'before-delivery' : false;
}
