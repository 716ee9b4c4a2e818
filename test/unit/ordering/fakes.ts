/** A fake API client for the ordering flows' unit tests (the journal: test/helpers/memory-journal.ts). */
import type { CreatedOrder } from '../../../src/client/client.js';
import type {
  BalanceResponse,
  Order,
  OrderList,
  OptionsResponse,
  QuoteRequest,
  QuoteResponse,
} from '../../../src/client/types.js';
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
