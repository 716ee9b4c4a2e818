/**
 * `--max-spend <trx>/<duration>`: a rolling ceiling over what `ensure` orders, counted in a ledger that
 * outlives the process and is shared by whatever names it (journal/spend-ledger.ts): the API key's own
 * (`account <key id>`, every address, every host sharing the state store) or a named `--budget`. The run's
 * Ceiling (ensure-types.ts) is parsed once by the option parser (commands/ensure-options.ts) and handed here
 * by commands/ensure-run.ts. Every request is held in the ledger at its quoted price before it leaves, checked
 * against the ceiling in that same step, alone among the ledger's writers (the store's `hold`, deciding with
 * journal/spend-decide.ts): those that would pass it are refused here (`refusal`: reason `spend_limit`, exit
 * 5), never sent. Times are the API server's, as this run measured it when each answer came. When an order
 * would not fit, the ledger's orders not known final are read again first (ceiling-upkeep.ts).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ConflictError } from '../domain/cli-errors.js';
import type { CliError } from '../domain/errors.js';
import { compareAmounts, subtractAmounts } from '../domain/money.js';
import { recordedOrder, type JournalRecord } from '../journal/record.js';
import {
  accountLedger,
  budgetLedger,
  type SpendEvent,
  type SpendLedger,
  type Wanted,
} from '../journal/spend-ledger.js';
import type { ServerClock } from '../ordering/server-clock.js';
import { learnFromJournal, recheckOpenOrders, type CeilingStore } from './ceiling-upkeep.js';
import type {
  Ceiling,
  EnsureClient,
  FinalOutcome,
  Purchase,
  SpendCeilingRule,
  SpendHold,
  SpendReservation,
} from './ensure-types.js';
import { failItem } from './item.js';
import { needId } from './need-id.js';
import { GroupedAppends } from './grouped-appends.js';
import { Hold, type Holder } from './spend-hold.js';

export interface CeilingOptions {
  ceiling: Ceiling;
  open: () => Promise<CeilingStore>;
  note: (line: string) => void;
  /** This host's clock (tests shift it). */
  hostNowMs?: () => number;
  /** Reads the server's clock: for the gauge of a service that has not ordered yet (no run measured it). */
  serverClock?: () => Promise<ServerClock>;
}

/** The ledger the ceiling counts in: the --budget's, else the API key's own. */
export function ceilingLedger(ceiling: Ceiling, keyId: string): string {
  return ceiling.budget === undefined ? accountLedger(keyId) : budgetLedger(ceiling.budget);
}

interface HoldOutcome {
  /** One per request, in order: undefined where it is held, else why not (exit 5). */
  refusals: (CliError | undefined)[];
  /** The other base URLs this key's holds came from, when this run's is new among them (said once). */
  otherOrigins: string[];
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Why a request does not fit: its price, what is left (less than it), when the oldest counted leaves. */
function refusal(ceiling: Ceiling, ledger: string, total: string, left: string, oldestMs: number | undefined) {
  const which = ledger.startsWith('budget ') ? ` (${ledger})` : '';
  // Above the whole ceiling, it never fits, however empty the window.
  if (oldestMs === undefined || compareAmounts(total, ceiling.trx) > 0)
    return new ConflictError(
      `${total} TRX is more than --max-spend ${ceiling.text}${which} allows in any window (${ceiling.trx} TRX): not ordered`,
      { hint: 'raise --max-spend, or order less at a time' },
    );
  const shown = compareAmounts(left, '0') < 0 ? '0.000000' : left;
  return new ConflictError(
    `${total} TRX would pass --max-spend ${ceiling.text}${which}: ${shown} TRX left of ${ceiling.trx}; the oldest order counted leaves the window at ${iso(oldestMs + ceiling.windowMs)} on the API's clock: not ordered`,
  );
}

/**
 * Holds each request that fits, in the order given (a later, cheaper one may fit where an earlier one did
 * not), in one step of the ledger at the server's `nowMs`; each other one refused. With `dry`, decides the
 * same and holds nothing: whether these prices would fit now (a dry run's answer, never a promise).
 */
async function holdInOrder(
  ledger: SpendLedger,
  ceiling: Ceiling,
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
    trx: ceiling.trx,
    windowMs: ceiling.windowMs,
    nowMs,
    dry,
  });
  const refusals = shortfalls.map((short, index) =>
    short === undefined ? undefined : refusal(ceiling, ledger.name, wanted[index]!.total, short.left, short.oldestMs),
  );
  return { refusals, otherOrigins };
}

export class SpendCeiling implements SpendCeilingRule {
  /**
   * The server's clock as the last run read it (the process's one clock, advanced by the monotonic clock):
   * for the gauge and settlements between runs. A host clock that steps moves neither.
   */
  #clock: ServerClock | undefined;
  readonly #token = `${hostname()} ${process.pid} ${randomBytes(4).toString('hex')}`;
  #opened: Promise<CeilingStore & { holder: Holder; appends: GroupedAppends }> | undefined;

  constructor(private readonly o: CeilingOptions) {}

  #open(): Promise<CeilingStore & { holder: Holder; appends: GroupedAppends }> {
    this.#opened ??= this.o.open().then((store) => ({
      ...store,
      holder: { token: this.#token, account: store.journal.scope },
      // The holds' orders and drops, written together where they meet (orders are placed side by side).
      appends: new GroupedAppends(store.ledger),
    }));
    return this.#opened;
  }

  get limit(): Ceiling {
    return this.o.ceiling;
  }

  async reserve(
    purchases: readonly Purchase[],
    clock: ServerClock,
    client: Pick<EnsureClient, 'getOrder'>,
  ): Promise<SpendReservation> {
    this.#clock = clock;
    const store = await this.#open();
    await learnFromJournal(store, this.o.ceiling, clock.nowMs());
    const wanted = purchases.map((purchase) => ({
      id: needId(purchase.item.address, purchase.need.anchor),
      address: purchase.item.address,
      total: purchase.quote.total_trx,
    }));
    let { refusals } = await this.#hold(store, wanted, clock.nowMs());
    const refused = () => wanted.filter((_, index) => refusals[index] !== undefined);
    if (refused().length > 0 && (await recheckOpenOrders(store, this.o.ceiling, clock.nowMs(), client, this.o.note))) {
      const again = (await this.#hold(store, refused(), clock.nowMs())).refusals;
      let next = 0;
      refusals = refusals.map((error) => (error === undefined ? undefined : again[next++]));
    }
    const holds = new Map<Purchase, Hold>();
    purchases.forEach((purchase, index) => {
      const error = refusals[index];
      if (error !== undefined) failItem(purchase.item, error, 'spend_limit');
      else holds.set(purchase, this.#holdOf(store, clock, wanted[index]!, false));
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
    return refused ?? this.#holdOf(store, clock, wanted, true);
  }

  async settle(outcomes: readonly FinalOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const { ledger } = await this.#open();
    const at = this.#serverNowMs();
    // Kept only where the ledger has the entry (the store checks, in the same step as it writes): one append,
    // one statement in PostgreSQL, however many orders a cycle settles.
    const events = outcomes.map(({ order, state }): SpendEvent => {
      return { kind: 'final', id: order.client_request_id, state, at_ms: at, note: null };
    });
    await ledger.append(events, at);
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
    return (await holdInOrder(ledger, this.o.ceiling, holder, wanted, clock.nowMs(), true)).refusals;
  }

  /** What is left now; `hostNowMs` counts only where no server clock can be read (a test's ceiling). */
  async leftNow(hostNowMs: number): Promise<string> {
    this.#clock ??= await this.o.serverClock?.();
    const { ledger } = await this.#open();
    const spent = await ledger.spent((this.#clock?.nowMs() ?? hostNowMs) - this.o.ceiling.windowMs);
    const left = subtractAmounts(this.o.ceiling.trx, spent);
    return compareAmounts(left, '0') < 0 ? '0.000000' : left;
  }

  #serverNowMs(): number {
    return this.#clock?.nowMs() ?? (this.o.hostNowMs ?? Date.now)();
  }

  /** A request's hold; one sent under another id is held afresh there, checked against the ceiling. */
  #holdOf(
    store: CeilingStore & { holder: Holder; appends: GroupedAppends },
    clock: ServerClock,
    wanted: Wanted,
    sent: boolean,
  ): Hold {
    const { ledger, holder, appends } = store;
    const again = async (other: Wanted) =>
      (await holdInOrder(ledger, this.o.ceiling, holder, [other], clock.nowMs())).refusals[0];
    return new Hold(appends, holder, clock, wanted, { sent, holdAgain: again });
  }

  async #hold({ ledger, holder }: { ledger: SpendLedger; holder: Holder }, wanted: Wanted[], nowMs: number) {
    const outcome = await holdInOrder(ledger, this.o.ceiling, holder, wanted, nowMs);
    const { keyId, origin } = holder.account;
    if (outcome.otherOrigins.length > 0)
      this.o.note(
        `energy: API key ${keyId} is used at ${origin} and at ${outcome.otherOrigins.join(', ')}: one --max-spend ledger (${ledger.name}) counts them all (a ledger follows the key, not the URL's spelling)`,
      );
    return outcome;
  }
}
