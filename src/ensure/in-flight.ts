/**
 * Energy bought for an address and not on chain yet, so that a run soon after another does not buy the
 * same shortfall again, and each need's anchor (see need-id.ts). In flight: orders in the account's list,
 * read back through the window, that are on their way (on-its-way.ts: not final, or delivered so recently
 * that the node may not show it); this machine's journal records whose outcome is unknown (they may be
 * orders the list does not show yet); and this machine's orders that the list no longer reaches (a large
 * batch since), followed by id. Erring this way buys too little at worst, which the next run makes up; the
 * other way would buy twice. Every time is on the server's clock (ordering/server-clock.ts).
 *
 * The journal (shared by the hosts naming one database) also carries each need's anchor past the part of the
 * list that is read: an order journaled under the id derived from the anchor answered that need, so the anchor
 * moves on to it, and on, for as many needs as the journal holds. An address behind any number of newer
 * orders then derives a fresh id at once instead of walking the server's old answers one request at a time.
 * Only the decision's own addresses' records are read.
 */
import { NotFoundError } from '../domain/cli-errors.js';
import { ApiError, ResponseShapeError, type CliError } from '../domain/errors.js';
import type { Order } from '../client/types.js';
import type { JournalRecord } from '../journal/record.js';
import { mapLimit } from '../domain/pool.js';
import { orderIdOf, pendingEndsAtMs, recordedOrder } from '../journal/record.js';
import { scanRecentOrders, type RecentScan } from '../ordering/find-recent.js';
import { timestampMs } from '../domain/api-time.js';
import { formatTimestamp } from '../domain/text-forms.js';
import type { EnsureClient, EnsureJournal } from './ensure-types.js';
import type { FinalOrders } from '../journal/final-orders.js';
import { isNeedId, needId, PERIOD_MS, periodStart, windowStart, type Need } from './need-id.js';
import { energyOnItsWay, stampedAhead } from './on-its-way.js';
import { deliveredAndLasting } from './not-on-chain.js';
import { isHeldRental } from './renewal.js';
import type { ServerClock } from '../ordering/server-clock.js';
import { FLEET_REACH_MS, type CycleList } from './cycle-list.js';

export interface InFlight extends Need {
  energy: number;
  /**
   * The part of `energy` already delivered (within the node's grace, see on-its-way.ts): the chain may show it
   * already, so it is counted in flight only up to what the chain does not show (plan-ensure.ts).
   */
  deliveredEnergy: number;
  /** Orders delivered past the node-lag grace and not expired: the node should show them (not-on-chain.ts). */
  delivered: Order[];
  /** Of `energy`, what delivered orders stamped ahead of the server's clock hold (on-its-way.ts stampedAhead). */
  stampedAheadEnergy: number;
  /** Set when what is on its way cannot be told: an order of this machine's the server does not know (404). */
  failure?: CliError | undefined;
  /** Journal records for the address whose outcome is unknown (counted in `energy`). */
  unknownRequests: number;
  /** Rentals delivered and held now, listed or followed by id: what --renew-before looks at (renewal.ts). */
  rentals: Order[];
  /** The delivered orders counted in `deliveredEnergy` (not stamped ahead): the node may show them (landed.ts). */
  justDelivered: Order[];
}

export interface InFlightInput {
  client: Pick<EnsureClient, 'orderPages' | 'getOrder'>;
  journal: Pick<EnsureJournal, 'pending' | 'ordered'>;
  addresses: ReadonlySet<string>;
  clock: ServerClock;
  /**
   * Ids of this machine's orders already seen arrived or ended (a service keeps it between cycles, so that
   * an order is followed by id until then, and not after).
   */
  knownFinal?: Set<string> | undefined;
  /** A service's reading of the list for this cycle (shared by the fleet's services); undefined: read here. */
  list?: CycleList | undefined;
  /** What the fleet knows ended (a shared state store): followed by id by no host again. */
  finalOrders?: FinalOrders | undefined;
  /** `--verbose` lines. */
  trace?: ((line: string) => void) | undefined;
  /** Lines for stderr: what the reading noticed about the list (repeated orders, its order). */
  note?: ((line: string) => void) | undefined;
}

/** Orders followed by id at once. */
const FOLLOW_CONCURRENCY = 4;

export async function inFlightByAddress(input: InFlightInput): Promise<Map<string, InFlight>> {
  const { client, journal, clock, trace } = input;
  const knownFinal = input.knownFinal ?? new Set<string>();
  const nowMs = clock.nowMs();
  const result = new Map<string, InFlight>(
    [...input.addresses].map((address) => [
      address,
      {
        energy: 0,
        deliveredEnergy: 0,
        delivered: [],
        stampedAheadEnergy: 0,
        unknownRequests: 0,
        rentals: [],
        justDelivered: [],
        anchor: { periodStartMs: periodStart(address, nowMs) },
        windowStartMs: windowStart(address, nowMs),
        listedSinceMs: undefined,
      },
    ]),
  );
  // One reading for all: back to the earliest window of them.
  const oldest = Math.min(...[...result.values()].map((entry) => entry.windowStartMs));
  const listed = new Set<string>();
  const anchoredAt = new Map<string, number>();
  const visit = (order: Order): void => {
    listed.add(order.client_request_id);
    const entry = result.get(order.address);
    if (entry === undefined) return;
    const onItsWay = energyOnItsWay(order, nowMs);
    entry.energy += onItsWay;
    if (order.delivery_final) entry.deliveredEnergy += onItsWay;
    if (order.delivery_final && onItsWay > 0 && !stampedAhead(order, nowMs)) entry.justDelivered.push(order);
    if (deliveredAndLasting(order, nowMs)) entry.delivered.push(order);
    if (stampedAhead(order, nowMs)) entry.stampedAheadEnergy += order.energy;
    if (isHeldRental(order, nowMs)) entry.rentals.push(order);
    // The newest order to the address within its window is its anchor (the first met, in a newest-first list).
    const created = timestampMs(order.created_at);
    if (created >= entry.windowStartMs && created > (anchoredAt.get(order.address) ?? -Infinity)) {
      anchoredAt.set(order.address, created);
      entry.anchor = { orderId: order.id };
    }
  };
  // A service's cycle reads the list once, and in a fleet one host an interval reads it for all (cycle-list.ts).
  const listing = await input.list?.read(client, input.addresses, oldest, nowMs - FLEET_REACH_MS);
  let scan: RecentScan;
  if (listing === undefined)
    scan = await scanRecentOrders(client, oldest, visit, {
      onPageSize: (size) => trace?.(`energy: order list read in pages of ${size ?? "the server's default size"}`),
    });
  else {
    for (const order of listing.orders) visit(order);
    scan = listing.scan;
  }
  for (const line of scan.notices) input.note?.(line);
  if (!scan.complete && scan.outOfOrder) throw unorderedListError();
  if (!scan.complete) {
    trace?.(
      `energy: the order list was read back to ${formatTimestamp(scan.oldestReadMs ?? nowMs)} only (its newest orders), not through the window`,
    );
    for (const entry of result.values()) entry.listedSinceMs = scan.oldestReadMs;
  }
  const addresses = [...input.addresses];
  for (const record of await journal.pending(addresses)) {
    const sent = recordedOrder(record);
    const entry = result.get(sent.address);
    if (entry === undefined || listed.has(record.client_request_id)) continue;
    // Past its term (server clock) whatever it placed has ended: listed by `order pending`, not in flight.
    if (clock.nowMs() > pendingEndsAtMs(record)) continue;
    entry.energy += sent.energy;
    entry.unknownRequests += 1;
  }
  // The journal stamps records on the process's server clock, as the window is.
  const ordered = await journal.ordered(oldest, addresses);
  walkAnchors(result, ordered);
  // Only what can still be on its way is followed: an order past its term has ended, whatever it did. So a
  // new process reads the orders of the last few hours, not the window's history, and knownFinal keeps only
  // the ids it would otherwise follow.
  const hostNowMs = nowMs - clock.offsetMs;
  const inTerm = ordered.filter((record) => withinTerm(record, hostNowMs));
  const following = new Set(inTerm.map(orderIdOf));
  for (const id of knownFinal) if (!following.has(id)) knownFinal.delete(id);
  const unlisted = inTerm.flatMap((record) => {
    const orderId = orderIdOf(record);
    const entry = result.get(recordedOrder(record).address);
    const wanted =
      orderId !== undefined && entry !== undefined && !listed.has(record.client_request_id) && !knownFinal.has(orderId);
    return wanted ? [{ orderId, entry, record }] : [];
  });
  const follow = await notKnownEnded(unlisted, knownFinal, input.finalOrders);
  const ended: string[] = [];
  await mapLimit(follow, FOLLOW_CONCURRENCY, async ({ orderId, entry, record }) => {
    let order: Order;
    try {
      // Once a cycle: the order this cycle's settling read by id already (service/placed-orders.ts) is not read again.
      order = await (input.list?.orderById(orderId, () => client.getOrder(orderId)) ?? client.getOrder(orderId));
    } catch (error) {
      // That address's alone: one lost order must not stop every other address, cycle after cycle.
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      entry.failure = unknownOrderError(orderId, record);
      return;
    }
    const energy = energyOnItsWay(order, clock.nowMs());
    if (isHeldRental(order, clock.nowMs())) entry.rentals.push(order);
    // A delivery that lasts is followed on until it expires: the node should show it meanwhile.
    if (deliveredAndLasting(order, clock.nowMs())) entry.delivered.push(order);
    else if (energy === 0) {
      knownFinal.add(order.id);
      ended.push(orderId);
    } else {
      entry.energy += energy;
      if (order.delivery_final) entry.deliveredEnergy += energy;
      if (order.delivery_final && !stampedAhead(order, clock.nowMs())) entry.justDelivered.push(order);
    }
  });
  // Told to the fleet in one statement; a store that cannot be reached costs only requests, never an order.
  if (input.finalOrders !== undefined && ended.length > 0) await input.finalOrders.add(ended).catch(() => undefined);
  return result;
}

/**
 * Of the orders to follow by id, those no host of the fleet has seen end (one statement): the others join
 * `knownFinal` as if this process had seen them end. The store unreachable: each is followed, as alone.
 */
async function notKnownEnded<T extends { orderId: string }>(
  unlisted: T[],
  knownFinal: Set<string>,
  fleet: FinalOrders | undefined,
): Promise<T[]> {
  if (fleet === undefined || unlisted.length === 0) return unlisted;
  const ended = await fleet.known(unlisted.map(({ orderId }) => orderId)).catch(() => new Set<string>());
  for (const id of ended) knownFinal.add(id);
  return unlisted.filter(({ orderId }) => !ended.has(orderId));
}

/** After its hours, and this much more, since it was journaled or answered, an order has ended (on the host's clock). */
const TERM_SLACK_MS = 15 * 60_000;

/** Can the record's order still be on its way at `hostNowMs`? (Unreadable times: yes, it is followed.) */
function withinTerm(record: JournalRecord, hostNowMs: number): boolean {
  const started = Math.max(Date.parse(record.journaled_at), Date.parse(record.outcome?.at ?? '') || -Infinity);
  return !(started + recordedOrder(record).duration_hours * 3_600_000 + TERM_SLACK_MS < hostNowMs);
}

/**
 * Each address's anchor carried on through the journal: while an order is journaled under the id the anchor
 * derives, that order answered the need, and is the newer anchor (bounded: each record is one step at most).
 */
function walkAnchors(result: Map<string, InFlight>, ordered: readonly JournalRecord[]): void {
  const answered = new Map<string, string>();
  for (const record of ordered) {
    const orderId = orderIdOf(record);
    if (orderId !== undefined && isNeedId(record.client_request_id)) answered.set(record.client_request_id, orderId);
  }
  if (answered.size === 0) return;
  for (const [address, entry] of result) {
    for (let step = 0; step < answered.size; step += 1) {
      const next = answered.get(needId(address, entry.anchor));
      if (next === undefined) break;
      entry.anchor = { orderId: next };
    }
  }
}

/** A list not newest first, longer than a scan reads: what is on its way cannot be told (issue 32). */
function unorderedListError(): ResponseShapeError {
  return new ResponseShapeError(
    "the server's order list is not newest first (created_at rises down it) and holds more orders than ensure reads (1,000): what is on its way cannot be told, nothing bought",
    { hint: 'buy with `energy order create`; `energy order list` shows the order the server lists in' },
  );
}

/** The server answered 404 for an order this machine journaled: say which record, and what to do. */
function unknownOrderError(orderId: string, record: JournalRecord): NotFoundError {
  const { address } = recordedOrder(record);
  const until = new Date(Date.parse(record.journaled_at) + 2 * PERIOD_MS).toISOString().slice(0, 16);
  return new NotFoundError(
    `order ${orderId} (journal record ${record.client_request_id}, for ${address}) is not known to the server (404): what is on its way to ${address} cannot be told, nothing bought for it; check it with \`energy order get ${orderId}\` (another API key or server?); the record stops counting at ${until}Z, when it leaves ensure's two-day window`,
  );
}
