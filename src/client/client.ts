/**
 * EnergyClient: one typed method per Energy API v1 operation, each response checked against the spec's
 * shape before it is returned. The library surface that the CLI is a thin layer over.
 */
import { Transport, type TransportOptions } from './transport.js';
import * as schema from './schemas.js';
import type {
  BalanceResponse,
  CreateOrderRequest,
  OptionsResponse,
  Order,
  OrderList,
  QuoteRequest,
  QuoteResponse,
  TimeResponse,
} from './types.js';
import { ApiError, ResponseShapeError } from '../domain/errors.js';
import { MAX_READINGS, READ_AGAIN_BEYOND_MS, implausibleServerTime, measureOffsetSeconds } from './clock.js';

export interface CreatedOrder {
  order: Order;
  /** false when the server answered 200: the order already existed for this client_request_id. */
  created: boolean;
  /** The answer's body as received (what `energy api` prints). */
  text?: string;
}

export interface ClockCheck {
  unix_time: number;
  local_unix_time: number;
  /** Server minus local clock, in seconds. */
  skew_seconds: number;
  /** The offset now added to local time when signing (0 when the skew is within tolerance). */
  signing_offset_seconds: number;
}

export interface ListOrdersParams {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface OrderPagesParams extends ListOrdersParams {
  /**
   * Page sizes to try in turn when `limit` is not given, largest first: a 400 answer to one moves on to the
   * next (undefined: the server's default), and the first size accepted is kept for every page.
   */
  pageSizes?: readonly (number | undefined)[] | undefined;
  /** Told, once, the page size the server accepted (undefined: its default): what `--verbose` says. */
  onPageSize?: ((size: number | undefined) => void) | undefined;
  /** Checked before each page: once aborted, no further page is asked for and the pages simply end. */
  signal?: AbortSignal | undefined;
}

export class EnergyClient {
  readonly transport: Transport;

  constructor(options: TransportOptions) {
    this.transport = new Transport(options);
  }

  /** GET /v1/time (anonymous). */
  async time(): Promise<TimeResponse> {
    const answer = (
      await this.transport.send({ method: 'GET', path: '/v1/time', auth: false, check: schema.timeResponse })
    ).data;
    assertServerTime(answer.unix_time, this.transport.clock.localMs());
    return answer;
  }

  /** GET /v1/balance. */
  async balance(): Promise<BalanceResponse> {
    return (
      await this.transport.send({ method: 'GET', path: '/v1/balance', auth: true, check: schema.balanceResponse })
    ).data;
  }

  /** GET /v1/energy/options; `duration_hours` items sent as strings come back as integers. */
  async options(): Promise<OptionsResponse> {
    return (
      await this.transport.send({
        method: 'GET',
        path: '/v1/energy/options',
        auth: true,
        check: schema.optionsResponse,
      })
    ).data;
  }

  /** POST /v1/energy/quotes. */
  async quote(request: QuoteRequest): Promise<QuoteResponse> {
    const body = { address: request.address, energy: request.energy, duration_hours: request.duration_hours };
    return (
      await this.transport.send({
        method: 'POST',
        path: '/v1/energy/quotes',
        body,
        auth: true,
        check: schema.quoteResponse,
      })
    ).data;
  }

  /**
   * POST /v1/energy/orders. Retries resend the same bytes with the same `client_request_id`, so the server
   * returns the order it already has (200) instead of placing a second one.
   */
  async createOrder(request: CreateOrderRequest): Promise<CreatedOrder> {
    return this.sendOrderBody(orderRequestBody(request));
  }

  /**
   * POST /v1/energy/orders with a body serialised earlier (by `orderRequestBody`), sent byte for byte:
   * how a journaled request is resent, so that the server sees exactly the request it may already hold.
   */
  async sendOrderBody(body: string): Promise<CreatedOrder> {
    const asked = JSON.parse(body) as CreateOrderRequest;
    const { status, data, text } = await this.transport.send({
      method: 'POST',
      path: '/v1/energy/orders',
      body,
      auth: true,
      check: schema.order,
    });
    const mismatch =
      status !== 200 && status !== 201
        ? `HTTP ${status}; the spec allows only 200 or 201`
        : await orderMismatch(data, asked);
    if (mismatch !== undefined) {
      // Something was accepted, but not what we asked for: it may be an order, so say so.
      throw new ResponseShapeError(`POST /v1/energy/orders answered with ${mismatch}`, { outcomeUncertain: true });
    }
    return { order: data, created: status === 201, text };
  }

  /**
   * Reads the server clock into the one clock of this client (signing, the ledger, the journal use it) and
   * reports the skew. A reading far from what the clock knew is read again; two that agree win; a server
   * whose answers never agree fails the check (nothing is decided on a time nobody can trust).
   */
  checkClock(): Promise<ClockCheck> {
    return this.transport.sharingClockCheck(() => this.#checkClock());
  }

  async #checkClock(): Promise<ClockCheck> {
    const clock = this.transport.clock;
    const seen: number[] = [];
    for (let reading = 0; reading < MAX_READINGS; reading += 1) {
      const [sentMono, sentAt] = [clock.monoMs(), clock.localMs()];
      const { unix_time } = await this.time();
      const [receivedMono, receivedAt] = [clock.monoMs(), clock.localMs()];
      seen.push(unix_time);
      if (!clock.offer(unix_time, sentMono, receivedMono).taken) continue;
      return {
        unix_time,
        local_unix_time: Math.floor(receivedAt / 1000),
        skew_seconds: measureOffsetSeconds(unix_time, sentAt, receivedAt),
        signing_offset_seconds: clock.offsetSeconds,
      };
    }
    throw new ResponseShapeError(
      `GET /v1/time answered ${seen.join(', ')}: ${MAX_READINGS} readings that disagree with each other and with this host's clock by more than ${READ_AGAIN_BEYOND_MS / 1000} s`,
    );
  }

  /** The server's time now, in ms, on this client's clock (see RequestClock). */
  serverNowMs(): number {
    return this.transport.clock.serverNowMs();
  }

  /** GET /v1/energy/orders/{id}. */
  async getOrder(id: string): Promise<Order> {
    const path = `/v1/energy/orders/${encodeURIComponent(id)}`;
    return (await this.transport.send({ method: 'GET', path, auth: true, check: schema.order })).data;
  }

  /** GET /v1/energy/orders: one page. */
  async listOrders(params: ListOrdersParams = {}): Promise<OrderList> {
    const query = { limit: params.limit, cursor: params.cursor };
    return (
      await this.transport.send({
        method: 'GET',
        path: '/v1/energy/orders',
        query,
        auth: true,
        check: schema.orderList,
      })
    ).data;
  }

  /** Every order from `cursor` on, page by page; only one page is held in memory at a time. */
  async *allOrders(params: ListOrdersParams = {}): AsyncGenerator<Order> {
    for await (const page of this.orderPages(params)) yield* page.items;
  }

  /** Every page from `cursor` on, following next_cursor to the end (or until `signal` is aborted). */
  async *orderPages(params: OrderPagesParams = {}): AsyncGenerator<OrderList> {
    let cursor = params.cursor;
    let sizes = params.limit !== undefined ? [params.limit] : [...(params.pageSizes ?? [undefined])];
    const seen = new Set<string>();
    do {
      if (params.signal?.aborted === true) return;
      const page = await this.#firstAcceptedPage(sizes, cursor);
      if (sizes.length > 1) params.onPageSize?.(sizes[page.sizeIndex]);
      sizes = [sizes[page.sizeIndex]];
      yield page.list;
      cursor = page.list.next_cursor ?? undefined;
      // A server that hands back a cursor it already gave would make this loop forever.
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new ResponseShapeError(`GET /v1/energy/orders returned the cursor ${cursor} twice`);
        seen.add(cursor);
      }
    } while (cursor !== undefined);
  }

  /** One page at the first of `sizes` the server accepts (400 means it refused that size). */
  async #firstAcceptedPage(
    sizes: readonly (number | undefined)[],
    cursor: string | undefined,
  ): Promise<{ list: OrderList; sizeIndex: number }> {
    for (let index = 0; ; index += 1) {
      try {
        return { list: await this.listOrders({ limit: sizes[index], cursor }), sizeIndex: index };
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 400 && index < sizes.length - 1)) throw error;
      }
    }
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

/** The order request's body bytes, in the spec's field order, with no unknown property. */
export function orderRequestBody(request: CreateOrderRequest): string {
  return JSON.stringify({
    client_request_id: request.client_request_id,
    address: request.address,
    energy: request.energy,
    duration_hours: request.duration_hours,
    expected_total_trx: request.expected_total_trx,
  });
}

/**
 * What differs between the order the server returned and the one we asked for, if anything: another
 * request's order, or a total above the price we agreed to, must not pass as ours.
 */
async function orderMismatch(order: Order, asked: CreateOrderRequest): Promise<string | undefined> {
  for (const key of ['client_request_id', 'address', 'energy', 'duration_hours'] as const) {
    if (order[key] !== asked[key])
      return `an order whose ${key} is ${JSON.stringify(order[key])}, not ${JSON.stringify(asked[key])}`;
  }
  const { compareAmounts } = await import('../domain/money.js');
  if (compareAmounts(order.total_trx, asked.expected_total_trx) > 0) {
    return `an order whose total_trx ${order.total_trx} is above the expected ${asked.expected_total_trx}`;
  }
  return undefined;
}

/** A time that cannot be one is refused as a malformed answer is (exit 7), before anything adopts or stores it. */
function assertServerTime(unixTime: number, localMs: number): void {
  const why = implausibleServerTime(unixTime, localMs);
  if (why !== undefined)
    throw new ResponseShapeError(`GET /v1/time answered unix_time ${unixTime}, which cannot be the time (${why})`);
}
