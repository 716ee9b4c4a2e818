/**
 * `--max-spend <trx>/<duration>`: a rolling ceiling over what `ensure` orders, counted in a ledger that
 * outlives the process and is shared by whatever names it (journal/spend-ledger.ts): the API key's own
 * (`account <key id>`, every address, every host sharing the state store) or a named `--budget`. Every
 * request is held in the ledger at its quoted price before it leaves, checked against the ceiling in that
 * same step, alone among the ledger's writers (spend-hold.ts): those that would pass it fail (reason `spend_limit`,
 * exit 5), never sent. Times are the API server's, as this run measured it when each answer came.
 * When an order would not fit, the ledger's orders not known final are read again first: a refund (an
 * order that ended undelivered, with or without a failure object) gives its price back; a 404 settles the
 * entry as unknown (kept counted), never a failed run.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Order } from '../client/types.js';
import { endedUndelivered, isFinal } from '../client/wait-for-order.js';
import type { CliError } from '../domain/errors.js';
import { ApiError } from '../domain/errors.js';
import { compareAmounts, subtractAmounts } from '../domain/money.js';
import type { OrderJournal } from '../journal/order-journal.js';
import { orderIdOf, recordedOrder, type JournalRecord } from '../journal/record.js';
import type { SpendEvent, SpendLedger } from '../journal/spend-ledger.js';
import type { ServerClock } from '../ordering/server-clock.js';
import type {
  EnsureClient,
  MaxSpend,
  Purchase,
  SpendCeilingRule,
  SpendHold,
  SpendReservation,
} from './ensure-types.js';
import { failItem } from './item.js';
import { needId } from './need-id.js';
import { Hold, holdInOrder, type Holder, type Wanted } from './spend-hold.js';

/** Orders followed again at most, when the ceiling is near, to find refunds. */
const RECHECK_AT_MOST = 20;
/** Holds of earlier runs looked up in the journal at most, per run. */
const LEARN_AT_MOST = 100;

/** What the ceiling needs once it counts: opened at the first order, never by a run that buys nothing. */
export interface CeilingStore {
  ledger: SpendLedger;
  /** This run's API and key: its holds are filed under them, and its journal says what became of them. */
  journal: Pick<OrderJournal, 'find' | 'scope'>;
}

export interface CeilingOptions {
  limit: MaxSpend;
  open: () => Promise<CeilingStore>;
  note: (line: string) => void;
  /** This host's clock (tests shift it). */
  hostNowMs?: () => number;
  /** Reads the server's clock: for the gauge of a service that has not ordered yet (no run measured it). */
  serverClock?: () => Promise<ServerClock>;
}

export class SpendCeiling implements SpendCeilingRule {
  /**
   * The server's clock as the last run read it (the process's one clock, advanced by the monotonic clock):
   * for the gauge and settlements between runs. A host clock that steps moves neither.
   */
  #clock: ServerClock | undefined;
  readonly #token = `${hostname()} ${process.pid} ${randomBytes(4).toString('hex')}`;
  #opened: Promise<CeilingStore & { holder: Holder }> | undefined;

  constructor(private readonly o: CeilingOptions) {}

  #open(): Promise<CeilingStore & { holder: Holder }> {
    this.#opened ??= this.o.open().then((store) => ({
      ...store,
      holder: { token: this.#token, account: store.journal.scope },
    }));
    return this.#opened;
  }

  get limit(): MaxSpend {
    return this.o.limit;
  }

  async reserve(
    purchases: readonly Purchase[],
    clock: ServerClock,
    client: Pick<EnsureClient, 'getOrder'>,
  ): Promise<SpendReservation> {
    this.#clock = clock;
    const store = await this.#open();
    const { ledger, holder } = store;
    await this.#learnFromJournal(store, clock.nowMs());
    const wanted = purchases.map((purchase) => ({
      id: needId(purchase.item.address, purchase.need.anchor),
      address: purchase.item.address,
      total: purchase.quote.total_trx,
    }));
    let { refusals } = await this.#hold(store, wanted, clock.nowMs());
    const refused = () => wanted.filter((_, index) => refusals[index] !== undefined);
    if (refused().length > 0 && (await this.#recheck(store, clock.nowMs(), client))) {
      const again = (await this.#hold(store, refused(), clock.nowMs())).refusals;
      let next = 0;
      refusals = refusals.map((error) => (error === undefined ? undefined : again[next++]));
    }
    const holds = new Map<Purchase, Hold>();
    purchases.forEach((purchase, index) => {
      const error = refusals[index];
      if (error !== undefined) failItem(purchase.item, error, 'spend_limit');
      else holds.set(purchase, new Hold(ledger, this.o.limit, holder, clock, wanted[index]!, { sent: false }));
    });
    return {
      purchases: [...holds.keys()],
      holdOf: (purchase) => holds.get(purchase),
      releaseUnsent: async () => {
        for (const hold of holds.values()) if (!hold.sent) await hold.nothing();
      },
    };
  }

  async holdResend(record: JournalRecord, clock: ServerClock): Promise<SpendHold | CliError> {
    this.#clock = clock;
    const { address, expected_total_trx: total } = recordedOrder(record);
    const wanted = { id: record.client_request_id, address, total };
    const store = await this.#open();
    const [refused] = (await this.#hold(store, [wanted], clock.nowMs())).refusals;
    return refused ?? new Hold(store.ledger, this.o.limit, store.holder, clock, wanted, { sent: true });
  }

  async settle(order: Order, state: 'kept' | 'refunded'): Promise<void> {
    const { ledger } = await this.#open();
    const at = this.#serverNowMs();
    // Kept only where the ledger has the entry (the store checks, in the same step as it writes).
    await ledger.append([{ kind: 'final', id: order.client_request_id, state, at_ms: at, note: null }], at);
  }

  /**
   * Would these purchases fit under the ceiling now, in this order? The same decision as `reserve`, holding
   * nothing (a dry run's answer, never a promise): one refusal per purchase, undefined where it fits.
   */
  async fits(purchases: readonly Purchase[], clock: ServerClock): Promise<(CliError | undefined)[]> {
    const { ledger, holder } = await this.#open();
    const wanted = purchases.map((purchase) => ({
      id: needId(purchase.item.address, purchase.need.anchor),
      address: purchase.item.address,
      total: purchase.quote.total_trx,
    }));
    return (await holdInOrder(ledger, this.o.limit, holder, wanted, clock.nowMs(), true)).refusals;
  }

  /** What is left now; `hostNowMs` counts only where no server clock can be read (a test's ceiling). */
  async leftNow(hostNowMs: number): Promise<string> {
    this.#clock ??= await this.o.serverClock?.();
    const { ledger } = await this.#open();
    const spent = await ledger.spent((this.#clock?.nowMs() ?? hostNowMs) - this.o.limit.windowMs);
    const left = subtractAmounts(this.o.limit.trx, spent);
    return compareAmounts(left, '0') < 0 ? '0.000000' : left;
  }

  #serverNowMs(): number {
    return this.#clock?.nowMs() ?? (this.o.hostNowMs ?? Date.now)();
  }

  async #hold({ ledger, holder }: { ledger: SpendLedger; holder: Holder }, wanted: Wanted[], nowMs: number) {
    const outcome = await holdInOrder(ledger, this.o.limit, holder, wanted, nowMs);
    const { keyId, origin } = holder.account;
    if (outcome.otherOrigins.length > 0)
      this.o.note(
        `energy: API key ${keyId} is used at ${origin} and at ${outcome.otherOrigins.join(', ')}: one --max-spend ledger (${ledger.name}) counts them all (a ledger follows the key, not the URL's spelling)`,
      );
    return outcome;
  }

  /** The ledger's orders not known final, read again: true when some turned out refunded. */
  async #recheck(store: CeilingStore, nowMs: number, client: Pick<EnsureClient, 'getOrder'>): Promise<boolean> {
    const { ledger, journal } = store;
    const open = await ledger.openOrders(nowMs - this.o.limit.windowMs, journal.scope.keyId, RECHECK_AT_MOST);
    const events: SpendEvent[] = [];
    for (const { id, order_id } of open) {
      let order: Order;
      try {
        order = await client.getOrder(order_id);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
        const note = `the API answered 404 for order ${order_id}: it stays counted under --max-spend until it leaves the window`;
        this.o.note(`energy: ${note}`);
        events.push({ kind: 'final', id, state: 'unknown', at_ms: nowMs, note });
        continue;
      }
      if (!isFinal(order)) continue;
      events.push({
        kind: 'final',
        id,
        state: endedUndelivered(order) ? 'refunded' : 'kept',
        at_ms: nowMs,
        note: null,
      });
    }
    if (events.length > 0) await ledger.append(events, nowMs);
    return events.some((event) => event.kind === 'final' && event.state === 'refunded');
  }

  /**
   * Holds of this key's earlier runs whose journal record has an order the ledger lacks (a run killed
   * between its answer and its ledger line; `order recover`): filed as that order now. Later than it was
   * placed, so it counts longer, never shorter.
   */
  async #learnFromJournal({ ledger, journal }: CeilingStore, nowMs: number): Promise<void> {
    // The journal is the key's, whatever spelling of the URL its records were sent under.
    const { keyId } = journal.scope;
    const lacking = await ledger.lackingOrders(nowMs - this.o.limit.windowMs, keyId, LEARN_AT_MOST);
    const events: SpendEvent[] = [];
    for (const { id, address, total } of lacking) {
      const record = await journal.find(id);
      const orderId = record === undefined ? undefined : orderIdOf(record);
      if (orderId === undefined) continue;
      events.push({ kind: 'order', id, order_id: orderId, address, total_trx: total, at_ms: nowMs });
    }
    if (events.length > 0) await ledger.append(events, nowMs);
  }
}
