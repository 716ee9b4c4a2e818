/**
 * Holding order requests in the --max-spend ledger (journal/spend-ledger.ts), checked against the ceiling in
 * the same step, alone among the ledger's writers, so that two runs, processes or hosts can never both take the last
 * room: a request is held (its quoted price) before it leaves; its hold then becomes its order, or goes.
 */
import type { Order } from '../client/types.js';
import { ConflictError } from '../domain/cli-errors.js';
import type { CliError } from '../domain/errors.js';
import { compareAmounts } from '../domain/money.js';
import type { SpendEvent, SpendLedger, Wanted } from '../journal/spend-ledger.js';
import type { JournalScope } from '../journal/order-journal.js';
import { mayHaveOrder, type JournalRecord } from '../journal/record.js';
import type { ServerClock } from '../ordering/server-clock.js';
import type { MaxSpend, SpendHold } from './ensure-types.js';

/** Who holds: this run (one holder for all its requests), under its API key and base URL. */
export interface Holder {
  token: string;
  account: JournalScope;
}

export type { Wanted };

export interface HoldOutcome {
  /** One per request, in order: undefined where it is held, else why not (exit 5). */
  refusals: (CliError | undefined)[];
  /** The other base URLs this key's holds came from, when this run's is new among them (said once). */
  otherOrigins: string[];
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Why a request does not fit: its price, what is left (less than it), when the oldest counted leaves. */
function refusal(limit: MaxSpend, ledger: string, total: string, left: string, oldestMs: number | undefined): CliError {
  const which = ledger.startsWith('budget ') ? ` (${ledger})` : '';
  // Above the whole ceiling, it never fits, however empty the window.
  if (oldestMs === undefined || compareAmounts(total, limit.trx) > 0)
    return new ConflictError(
      `${total} TRX is more than --max-spend ${limit.text}${which} allows in any window (${limit.trx} TRX): not ordered`,
      { hint: 'raise --max-spend, or order less at a time' },
    );
  const shown = compareAmounts(left, '0') < 0 ? '0.000000' : left;
  return new ConflictError(
    `${total} TRX would pass --max-spend ${limit.text}${which}: ${shown} TRX left of ${limit.trx}; the oldest order counted leaves the window at ${iso(oldestMs + limit.windowMs)} on the API's clock: not ordered`,
  );
}

/**
 * Holds each request that fits, in the order given (a later, cheaper one may fit where an earlier one did
 * not), in one step of the ledger at the server's `nowMs`. With `dry`, decides the same and holds nothing:
 * whether these prices would fit now (a dry run's answer, never a promise).
 */
export async function holdInOrder(
  ledger: SpendLedger,
  limit: MaxSpend,
  holder: Holder,
  wanted: readonly Wanted[],
  nowMs: number,
  dry = false,
): Promise<HoldOutcome> {
  const { keyId, origin } = holder.account;
  const { shortfalls, otherOrigins } = await ledger.hold({
    holder: holder.token,
    keyId,
    origin,
    wanted,
    trx: limit.trx,
    windowMs: limit.windowMs,
    nowMs,
    dry,
  });
  const refusals = shortfalls.map((short, index) =>
    short === undefined ? undefined : refusal(limit, ledger.name, wanted[index]!.total, short.left, short.oldestMs),
  );
  return { refusals, otherOrigins };
}

/** One request's hold, from before it leaves to its answer. */
export class Hold implements SpendHold {
  /** Its request was sent (or is about to be): from then on only its answer or its journal record end it. */
  sent: boolean;
  #id: string | undefined;

  constructor(
    private readonly ledger: SpendLedger,
    private readonly limit: MaxSpend,
    private readonly holder: Holder,
    private readonly clock: ServerClock,
    private readonly wanted: Wanted,
    options: { sent: boolean },
  ) {
    this.#id = wanted.id;
    this.sent = options.sent;
  }

  async sending(id: string): Promise<CliError | undefined> {
    this.sent = true;
    if (id === this.#id) return undefined;
    // Another id (the need's first id answered with an earlier need's order): held afresh, checked.
    await this.nothing();
    const [refused] = (
      await holdInOrder(this.ledger, this.limit, this.holder, [{ ...this.wanted, id }], this.clock.nowMs())
    ).refusals;
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
