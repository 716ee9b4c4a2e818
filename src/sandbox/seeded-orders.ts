/**
 * Pre-created history (`seedOrders`): delivered, expired orders one second apart, ending well in the past.
 * They are virtual — each is computed from its sequence number when read — so that seeding 100,000 orders
 * costs nothing at start and nothing in memory. Their money is history: the balance never sees it.
 */
import { randomUUID } from 'node:crypto';
import { multiplyAmount } from '../domain/money.js';
import { DEFAULT_RATES, DURATIONS, SEED_ADDRESSES } from './catalog.js';
import type { OrderRecord, Timing } from './order-lifecycle.js';

const SEED_ENERGY = [32_000, 65_000, 131_000];
const CLIENT_REQUEST_ID = /^seed-(0|[1-9]\d{0,14})$/;
const SEQ_HEX = /^[0-9a-f]{12}$/;

export class SeededOrders {
  /** 'xxxxxxxx-xxxx-4xxx-yxxx-': random per sandbox; the last group is the sequence number in hex. */
  private readonly idPrefix = randomUUID().slice(0, 24);
  private readonly firstMs: number;
  private readonly totals = new Map<string, string>();

  constructor(
    readonly count: number,
    timing: Timing,
    nowMs: number,
  ) {
    if (count >= 2 ** 48) throw new RangeError('seedOrders is too large');
    const longest = timing.deliverAfterMs + Math.max(...DURATIONS) * timing.hourMs;
    this.firstMs = nowMs - longest - (count + 1) * 1000;
  }

  /** Addresses that have had a delivery, hence no activation fee. */
  get activatedAddresses(): readonly string[] {
    return SEED_ADDRESSES.slice(0, this.count);
  }

  record(seq: number): OrderRecord {
    const energy = SEED_ENERGY[seq % SEED_ENERGY.length] ?? 65_000;
    const durationHours = DURATIONS[seq % DURATIONS.length] ?? 1;
    return {
      seq,
      id: this.idPrefix + seq.toString(16).padStart(12, '0'),
      clientRequestId: `seed-${seq}`,
      address: SEED_ADDRESSES[seq % SEED_ADDRESSES.length] ?? '',
      energy,
      durationHours,
      totalTrx: this.total(energy, durationHours),
      createdMs: this.firstMs + seq * 1000,
      fails: false,
      stage: 3,
    };
  }

  seqOfId(id: string): number | undefined {
    if (!id.startsWith(this.idPrefix)) return undefined;
    const hex = id.slice(this.idPrefix.length);
    return SEQ_HEX.test(hex) ? this.inRange(parseInt(hex, 16)) : undefined;
  }

  seqOfClientRequestId(clientRequestId: string): number | undefined {
    const match = CLIENT_REQUEST_ID.exec(clientRequestId);
    return match === null ? undefined : this.inRange(Number(match[1]));
  }

  private inRange(seq: number): number | undefined {
    return seq < this.count ? seq : undefined;
  }

  private total(energy: number, durationHours: number): string {
    const key = `${energy}/${durationHours}`;
    let total = this.totals.get(key);
    if (total === undefined) {
      total = multiplyAmount(DEFAULT_RATES[durationHours] ?? '0.000000', energy);
      this.totals.set(key, total);
    }
    return total;
  }
}
