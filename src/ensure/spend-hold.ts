/**
 * One order request's hold in the --max-spend ledger (journal/spend-ledger.ts), from before it leaves to its
 * answer: taken by spend-ceiling.ts, checked against the ceiling in the same step as it is written, alone among
 * the ledger's writers, so that two runs, processes or hosts can never both take the last room. The hold then
 * becomes its order, or goes.
 */
import type { Order } from '../client/types.js';
import type { CliError } from '../domain/errors.js';
import type { SpendEvent, SpendLedger, Wanted } from '../journal/spend-ledger.js';
import type { JournalScope } from '../journal/order-journal.js';
import { mayHaveOrder, type JournalRecord } from '../journal/record.js';
import type { ServerClock } from '../ordering/server-clock.js';
import type { SpendHold } from './ensure-types.js';

/** Who holds: this run (one holder for all its requests), under its API key and base URL. */
export interface Holder {
  token: string;
  account: JournalScope;
}

/** One request's hold, from before it leaves to its answer. */
export class Hold implements SpendHold {
  /** Its request was sent (or is about to be): from then on only its answer or its journal record end it. */
  sent: boolean;
  #id: string | undefined;

  constructor(
    /** Where its order or drop is written (a run's appends, grouped where they meet: grouped-appends.ts). */
    private readonly ledger: Pick<SpendLedger, 'append'>,
    private readonly holder: Holder,
    private readonly clock: ServerClock,
    private readonly wanted: Wanted,
    private readonly options: {
      sent: boolean;
      /** Holds the request afresh under another id, checked against the ceiling (spend-ceiling.ts). */
      holdAgain: (wanted: Wanted) => Promise<CliError | undefined>;
    },
  ) {
    this.#id = wanted.id;
    this.sent = options.sent;
  }

  async sending(id: string): Promise<CliError | undefined> {
    this.sent = true;
    if (id === this.#id) return undefined;
    // Another id (the need's first id answered with an earlier need's order): held afresh, checked.
    await this.nothing();
    const refused = await this.options.holdAgain({ ...this.wanted, id });
    if (refused === undefined) this.#id = id;
    return refused;
  }

  async ordered(order: Order): Promise<void> {
    const id = this.#id ?? order.client_request_id;
    const event: SpendEvent = {
      kind: 'order',
      id,
      order_id: order.id,
      address: order.address,
      total_trx: order.total_trx,
      at_ms: this.clock.nowMs(),
    };
    await this.ledger.append([event], this.clock.nowMs());
  }

  async nothing(): Promise<void> {
    const id = this.#id;
    if (id === undefined) return;
    this.#id = undefined;
    const event: SpendEvent = { kind: 'drop', id, holder: this.holder.token, at_ms: this.clock.nowMs() };
    await this.ledger.append([event], this.clock.nowMs());
  }

  async failed(record: JournalRecord | undefined): Promise<void> {
    // A record that may have an order (pending: the outcome unknown) keeps its hold: it may still be spent.
    if (record !== undefined && !mayHaveOrder(record)) await this.nothing();
  }
}
