/**
 * An in-memory world for the ensure flow's unit tests: a fake Energy API (an order book on its own clock,
 * deduplicating client_request_ids as the spec's server does, with a page cap), a fake TRON node, a journal
 * in memory and a host clock that tests shift. Everything `runEnsure` reaches through EnsureDeps.
 */
import type { ClockCheck, CreatedOrder, OrderPagesParams } from '../../../src/client/client.js';
import type { BalanceResponse, Order, OrderList, OptionsResponse, QuoteRequest } from '../../../src/client/types.js';
import type { QuoteResponse } from '../../../src/client/types.js';
import { ApiError } from '../../../src/domain/errors.js';
import { TronNodeError } from '../../../src/domain/cli-errors.js';
import { multiplyAmount } from '../../../src/domain/money.js';
import type {
  EnsureApi,
  EnsureClient,
  EnsureDeps,
  EnsureItem,
  EnsureNode,
  EnsureOptions,
} from '../../../src/ensure/ensure-types.js';
import { everyAddress } from '../../../src/state/address-claim.js';
import { runEnsure } from '../../../src/ensure/run-ensure.js';
import type { AccountInfo, AccountResource } from '../../../src/tron/tron-types.js';
import { MemoryJournal } from '../../helpers/memory-journal.js';

export const HOUR_MS = 3_600_000;
/** Where the fake server's clock starts: 2026-11-23T10:00:00Z. */
export const SERVER_START_MS = Date.UTC(2026, 10, 23, 10);

let orderSeq = 0;
function uuid(): string {
  orderSeq += 1;
  return `00000000-0000-4000-8000-${String(orderSeq).padStart(12, '0')}`;
}

/** An order as the fake server holds it, times in ms on its clock. */
export function fakeOrder(fields: Partial<Order> & Pick<Order, 'address' | 'client_request_id'>): Order {
  return {
    id: uuid(),
    energy: 65_000,
    duration_hours: 1,
    total_trx: '2.600000',
    status: 'expired',
    lifecycle_final: true,
    delivery_final: true,
    created_at: SERVER_START_MS - HOUR_MS,
    updated_at: SERVER_START_MS - HOUR_MS,
    failure: null,
    ...fields,
  };
}

type PostHook = (body: Record<string, unknown>, api: FakeApi) => CreatedOrder | Error | undefined;

/** The Energy API, in memory. */
export class FakeApi implements EnsureClient {
  nowMs = SERVER_START_MS;
  /** Newest first, as the list sends them. */
  orders: Order[] = [];
  available = '1000.000000';
  intake = true;
  durations = [1, 24];
  /** Sizes above this are a 400; without `limit`, `defaultPageSize`. */
  maxPageSize = 100;
  defaultPageSize = 20;
  /** TRX per energy unit. */
  unitPrice = '0.000040';
  canAfford = true;
  readonly posted: string[] = [];
  readonly quoted: QuoteRequest[] = [];
  readonly pageLimits: (number | undefined)[] = [];
  /** The most order requests that were in the server at once. */
  maxPostsAtOnce = 0;
  postsNow = 0;
  /** Runs before each order POST: an answer or error replaces the server's own. */
  onPost: PostHook | undefined;

  /** What a host whose clock agrees with this server's measures (each Host adds its own skew). */
  async checkClock(): Promise<ClockCheck> {
    const unix_time = Math.floor(this.nowMs / 1000);
    return { unix_time, local_unix_time: unix_time, skew_seconds: 0, signing_offset_seconds: 0 };
  }

  async options(): Promise<OptionsResponse> {
    return {
      energy_per_portion: 1000,
      max_energy: 1_000_000,
      duration_hours: this.durations,
      intake_enabled: this.intake,
    };
  }

  async balance(): Promise<BalanceResponse> {
    return { available_trx: this.available, held_trx: '0.000000', status: 'active' };
  }

  async quote(request: QuoteRequest): Promise<QuoteResponse> {
    this.quoted.push(request);
    const total = multiplyAmount(this.unitPrice, request.energy);
    return { ...request, energy_trx: total, activation_trx: null, total_trx: total, can_afford: this.canAfford };
  }

  async sendOrderBody(body: string): Promise<CreatedOrder> {
    this.posted.push(body);
    this.postsNow += 1;
    this.maxPostsAtOnce = Math.max(this.maxPostsAtOnce, this.postsNow);
    // A request takes a turn of the event loop, as on a socket: others may arrive meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    this.postsNow -= 1;
    const sent = JSON.parse(body) as Record<string, unknown>;
    const scripted = this.onPost?.(sent, this);
    if (scripted instanceof Error) throw scripted;
    if (scripted !== undefined) return scripted;
    const existing = this.orders.find((order) => order.client_request_id === sent.client_request_id);
    if (existing !== undefined) {
      const same = existing.address === sent.address && existing.energy === sent.energy;
      if (!same) throw new ApiError(409, 'client_request_id used for another order', undefined);
      return { order: existing, created: false };
    }
    return { order: this.place(sent), created: true };
  }

  /** Places an order as the server would (now, pending), newest first. */
  place(sent: Record<string, unknown>): Order {
    const order = fakeOrder({
      client_request_id: sent.client_request_id as string,
      address: sent.address as string,
      energy: sent.energy as number,
      duration_hours: sent.duration_hours as number,
      total_trx: sent.expected_total_trx as string,
      status: 'pending',
      lifecycle_final: false,
      delivery_final: false,
      created_at: this.nowMs,
      updated_at: this.nowMs,
    });
    this.orders.unshift(order);
    return order;
  }

  async getOrder(id: string): Promise<Order> {
    const order = this.orders.find((candidate) => candidate.id === id);
    if (order === undefined) throw new ApiError(404, `no order ${id}`, undefined);
    return order;
  }

  async *orderPages(params: OrderPagesParams = {}): AsyncGenerator<OrderList> {
    let size: number | undefined;
    for (const candidate of params.pageSizes ?? [undefined]) {
      this.pageLimits.push(candidate);
      if (candidate === undefined || candidate <= this.maxPageSize) {
        size = candidate;
        break;
      }
    }
    params.onPageSize?.(size);
    const step = size ?? this.defaultPageSize;
    for (let offset = 0; offset < this.orders.length; offset += step) {
      const items = this.orders.slice(offset, offset + step);
      yield { items, next_cursor: offset + step < this.orders.length ? `c${offset + step}` : null };
    }
  }

  ordersTo(address: string): Order[] {
    return this.orders.filter((order) => order.address === address);
  }
}

/** The TRON node: each address's available energy, read in turn from a script when one is given. */
export class FakeNode implements EnsureNode {
  readonly url = 'https://node.energy.test';
  readonly energy = new Map<string, number[]>();
  /** Energy the address has used: on top of what it has available, in its limit (a delivery it spent). */
  readonly used = new Map<string, number>();
  reads = 0;

  /** The readings the address gives, one per read; the last repeats. */
  set(address: string, ...readings: number[]): void {
    this.energy.set(address, readings);
  }

  async getAccountResource(address: string): Promise<AccountResource> {
    this.reads += 1;
    const readings = this.energy.get(address) ?? [0];
    const value = readings.length > 1 ? readings.shift()! : readings[0]!;
    return {
      EnergyLimit: value + (this.used.get(address) ?? 0),
      EnergyUsed: this.used.get(address) ?? 0,
      freeNetLimit: 600,
      freeNetUsed: 0,
      NetLimit: 0,
      NetUsed: 0,
      empty: false,
    };
  }

  async getAccount(): Promise<AccountInfo> {
    return { activated: true, contract: false };
  }

  /** getEnergyFee; undefined makes the read fail as a node that cannot say would. */
  energyFeeSun: number | undefined = 210;
  priceReads = 0;

  async getEnergyPrice(): Promise<{ sunPerEnergy: number }> {
    this.priceReads += 1;
    if (this.energyFeeSun === undefined) throw new TronNodeError('getchainparameters: no getEnergyFee');
    return { sunPerEnergy: this.energyFeeSun };
  }

  async simulateTransfer(): Promise<never> {
    throw new Error('not simulated in these tests');
  }
}

/** One host: its clock (the server's plus `aheadMs`), journal and notes, over a shared API and node. */
export class Host {
  readonly journal: MemoryJournal;
  readonly notes: string[] = [];
  readonly knownFinal = new Set<string>();

  constructor(
    readonly api: FakeApi,
    readonly node: FakeNode,
    readonly aheadMs = 0,
  ) {
    // The CLI's journal stamps on the process's server clock (domain/server-now.ts), not the host's.
    this.journal = new MemoryJournal(() => this.api.nowMs);
  }

  nowMs(): number {
    return this.api.nowMs + this.aheadMs;
  }

  deps(): EnsureDeps {
    const api: EnsureApi = {
      // The shared server, seen from this host: its clock check measures this host's own skew.
      client: new Proxy(this.api, {
        get: (target, key, receiver) =>
          key === 'checkClock'
            ? async () => ({ ...(await target.checkClock()), skew_seconds: -Math.round(this.aheadMs / 1000) })
            : Reflect.get(target, key, receiver),
      }),
      journal: this.journal,
      recoverCommand: (id) => `energy order recover${id === undefined ? '' : ` ${id}`}`,
      waitCommand: (id) => `energy order wait ${id}`,
    };
    return {
      node: this.node,
      api: async () => api,
      confirm: undefined,
      env: {},
      note: (line) => this.notes.push(line),
      progress: undefined,
      claim: async (addresses) => everyAddress(addresses),
      nowMs: () => this.nowMs(),
      knownFinal: this.knownFinal,
      pollMs: 0,
    };
  }

  run(options: Partial<EnsureOptions> & Pick<EnsureOptions, 'addresses'>): Promise<EnsureItem[]> {
    return runEnsure(this.deps(), ensureOptions(options));
  }
}

export function ensureOptions(options: Partial<EnsureOptions> & Pick<EnsureOptions, 'addresses'>): EnsureOptions {
  return { energy: 65_000, toleranceBp: 100, hours: 1, yes: true, dryRun: false, ...options };
}
