/** A fake API client and an in-memory order journal, for the ordering flows' unit tests. */
import type { CreatedOrder } from '../../../src/client/client.js';
import type {
  BalanceResponse,
  Order,
  OrderList,
  OptionsResponse,
  QuoteRequest,
  QuoteResponse,
} from '../../../src/client/types.js';
import { hasOrder, type JournalRecord, type Outcome, type OutcomeInput } from '../../../src/journal/record.js';
import { sampleOrder } from '../../helpers/sample-order.js';

/** What the fake server does with one order POST: answer 201 or 200, or fail with this error. */
export type PostAnswer = 'created' | 'existing' | Error;

export class FakeClient {
  readonly quotes: QuoteRequest[] = [];
  readonly posted: string[] = [];
  listed = 0;
  optionsRead = 0;
  balanceRead = 0;
  constructor(
    readonly script: {
      totalTrx?: string;
      answers?: PostAnswer[];
      recent?: Order[];
      pageError?: Error;
      /** Default true. */
      intake?: boolean;
      /** The options read fails with this. */
      optionsError?: Error;
      /** What the server's order (200 or 201) looks like beyond what was sent, e.g. final. */
      order?: Partial<Order>;
      /** The quotes' can_afford (default true) and the balance's available_trx (default 1000 TRX). */
      canAfford?: boolean;
      available?: string;
      /** The durations offered (default 1 h only). */
      hours?: number[];
      /** Every quote fails with this. */
      quoteError?: Error;
    } = {},
  ) {}

  async options(): Promise<OptionsResponse> {
    this.optionsRead += 1;
    if (this.script.optionsError !== undefined) throw this.script.optionsError;
    return {
      energy_per_portion: 1000,
      max_energy: 5_000_000,
      duration_hours: this.script.hours ?? [1],
      intake_enabled: this.script.intake ?? true,
    };
  }

  async quote(request: QuoteRequest): Promise<QuoteResponse> {
    this.quotes.push(request);
    if (this.script.quoteError !== undefined) throw this.script.quoteError;
    const total = this.script.totalTrx ?? '3.700000';
    return {
      ...request,
      energy_trx: total,
      activation_trx: null,
      total_trx: total,
      can_afford: this.script.canAfford ?? true,
    };
  }

  async balance(): Promise<BalanceResponse> {
    this.balanceRead += 1;
    return { available_trx: this.script.available ?? '1000.000000', held_trx: '0.000000', status: 'active' };
  }

  async sendOrderBody(body: string): Promise<CreatedOrder> {
    this.posted.push(body);
    const answer = this.script.answers?.[this.posted.length - 1] ?? 'created';
    if (answer instanceof Error) throw answer;
    const sent = JSON.parse(body) as Record<string, unknown>;
    const order = sampleOrder({
      id: `00000000-0000-4000-8000-${String(this.posted.length).padStart(12, '0')}`,
      client_request_id: sent.client_request_id as string,
      address: sent.address as string,
      energy: sent.energy as number,
      duration_hours: sent.duration_hours as number,
      total_trx: sent.expected_total_trx as string,
      ...this.script.order,
    });
    return { order, created: answer === 'created' };
  }

  async *orderPages(): AsyncGenerator<OrderList> {
    this.listed += 1;
    if (this.script.pageError !== undefined) throw this.script.pageError;
    yield { items: this.script.recent ?? [], next_cursor: null };
  }

  async listOrders(): Promise<OrderList> {
    return { items: this.script.recent ?? [], next_cursor: null };
  }
}

/** The journal's contract, in memory: a pending record per id until it is settled. */
export class MemoryJournal {
  readonly records = new Map<string, JournalRecord>();
  pruned = 0;

  find(id: string): JournalRecord | undefined {
    return this.records.get(id);
  }

  /** Records with no known outcome, in the order they were journaled. */
  pending(): JournalRecord[] {
    return [...this.records.values()].filter((record) => record.outcome === null);
  }

  /** Ids whose pending file is damaged: path and reason, as the disk journal reports them. */
  readonly damaged = new Map<string, { path: string; reason: string }>();

  unreadableFor(id: string): { path: string; reason: string } | undefined {
    return this.damaged.get(id);
  }

  async begin(id: string, body: string): Promise<{ record: JournalRecord; fresh: boolean }> {
    // As on disk: a pending record, or one that placed an order, is the one to send; a refused one is replaced.
    const earlier = this.records.get(id);
    if (earlier !== undefined && (earlier.outcome === null || hasOrder(earlier)))
      return { record: earlier, fresh: false };
    const record = journalRecord(id, body);
    this.records.set(id, record);
    return { record, fresh: true };
  }

  async markUncertain(record: JournalRecord, reason: string): Promise<JournalRecord> {
    const updated = { ...record, last_error: reason };
    this.records.set(record.client_request_id, updated);
    return updated;
  }

  async settle(record: JournalRecord, outcome: OutcomeInput): Promise<JournalRecord> {
    const settled = { ...record, outcome: { ...outcome, at: '2026-11-23T10:00:00.000Z' } as Outcome };
    this.records.set(record.client_request_id, settled);
    return settled;
  }

  async prune(): Promise<number> {
    this.pruned += 1;
    return 0;
  }
}

export function journalRecord(id: string, body: string, outcome: Outcome | null = null): JournalRecord {
  return {
    version: 1,
    origin: 'https://api.energy.test',
    key_id: 'sha256:0000000000000000',
    client_request_id: id,
    body,
    journaled_at: '2026-11-23T09:00:00.000Z',
    last_error: null,
    outcome,
  };
}
