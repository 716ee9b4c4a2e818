/**
 * `--max-spend <trx>/<duration>`: a rolling ceiling over what `ensure` ordered for these addresses, counted
 * in a spend ledger that outlives the process (journal/spend-ledger.ts), on the API server's clock. Before
 * orders are placed, those that would pass it fail (reason `spend_limit`, exit 5, with what is left) and are
 * never sent; each order placed is recorded at once. A refunded order gives its price back: when an order
 * would not fit, the ledger's orders not yet known final are read again first (a few GETs, only then).
 */
import type { Order } from '../client/types.js';
import { timestampMs } from '../domain/api-time.js';
import { ConflictError } from '../domain/errors.js';
import { compareAmounts, subtractAmounts } from '../domain/money.js';
import type { SpendLedger } from '../journal/spend-ledger.js';
import { spentOf } from '../journal/spend-ledger.js';
import { fitInOrder } from '../ordering/what-fits.js';
import type { ServerClock } from '../ordering/server-clock.js';
import type { EnsureClient, Purchase } from './ensure-types.js';
import { failItem } from './item.js';

/** `--max-spend 50/24h`: at most `trx` over any `windowMs`. */
export interface MaxSpend {
  trx: string;
  windowMs: number;
  /** As typed (`50/24h`), for messages. */
  text: string;
}

/** Orders followed again at most, when the ceiling is near, to find refunds. */
const RECHECK_AT_MOST = 20;

export class SpendCeiling {
  /** Server minus host clock, as the last run read it: for the gauge between runs. */
  #offsetMs = 0;

  constructor(
    readonly limit: MaxSpend,
    private readonly ledger: () => Promise<SpendLedger>,
    private readonly addresses: ReadonlySet<string>,
  ) {}

  /** What is left under the ceiling at the server's `serverNowMs` (never below 0). */
  async left(serverNowMs: number): Promise<string> {
    const ledger = await this.ledger();
    const spent = spentOf(await ledger.read(serverNowMs - this.limit.windowMs), this.addresses);
    const left = subtractAmounts(this.limit.trx, spent);
    return compareAmounts(left, '0') < 0 ? '0.000000' : left;
  }

  /** What is left now, on the server's clock as the last run measured it. */
  leftNow(hostNowMs: number): Promise<string> {
    return this.left(hostNowMs + this.#offsetMs);
  }

  /** The purchases that fit under the ceiling, in the order given; each other one fails its item, unsent. */
  async fit(
    purchases: readonly Purchase[],
    clock: ServerClock,
    client: Pick<EnsureClient, 'getOrder'>,
  ): Promise<Purchase[]> {
    this.#offsetMs = clock.offsetMs;
    const totals = purchases.map(({ quote }) => quote.total_trx);
    let left = await this.left(clock.nowMs());
    let { fits } = fitInOrder(totals, left);
    if (fits.includes(false) && (await this.#recheck(clock.nowMs(), client))) {
      left = await this.left(clock.nowMs());
      ({ fits } = fitInOrder(totals, left));
    }
    const since = new Date(clock.nowMs() - this.limit.windowMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return purchases.filter(({ item, quote }, index) => {
      if (fits[index]) return true;
      failItem(
        item,
        new ConflictError(
          `${quote.total_trx} TRX would pass --max-spend ${this.limit.text}: ${left} TRX left of ${this.limit.trx} (orders since ${since} on the API's clock): not ordered`,
        ),
        'spend_limit',
      );
      return false;
    });
  }

  /** An order's outcome once final: a refunded one no longer counts. */
  async settle(orderId: string, state: 'kept' | 'refunded'): Promise<void> {
    await (await this.ledger()).settle(orderId, state);
  }

  /** An order placed: counted at once, before anything else can fail. */
  async record(order: Order): Promise<void> {
    const ledger = await this.ledger();
    await ledger.record({
      order_id: order.id,
      address: order.address,
      total_trx: order.total_trx,
      at_ms: timestampMs(order.created_at),
    });
    await ledger.forget(timestampMs(order.created_at) - this.limit.windowMs);
  }

  /** Orders of the ledger not known final, read again: true when some turned out refunded. */
  async #recheck(serverNowMs: number, client: Pick<EnsureClient, 'getOrder'>): Promise<boolean> {
    const ledger = await this.ledger();
    const open = (await ledger.read(serverNowMs - this.limit.windowMs))
      .filter((entry) => entry.state === 'placed' && this.addresses.has(entry.address))
      .slice(-RECHECK_AT_MOST);
    let refunded = false;
    for (const entry of open) {
      const order = await client.getOrder(entry.order_id);
      if (order.failure !== null || (order.lifecycle_final && !order.delivery_final)) {
        await ledger.settle(entry.order_id, 'refunded');
        refunded = true;
      } else if (order.delivery_final) {
        await ledger.settle(entry.order_id, 'kept');
      }
    }
    return refunded;
  }
}
