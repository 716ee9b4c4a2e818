/**
 * A service's reading of the account's order list for one cycle (issue 47): read from the API at most once a
 * cycle, and in a fleet (a state store that shares it, state/shared-list.ts) by one host an interval. The host
 * whose cycle comes first once the last reading is an interval old takes the lease, reads the list as alone,
 * and publishes it; the others read, for their own addresses, that reading from the database instead of the
 * API. A reading older than the host's interval is refused (then the host reads, or waits for the one reading):
 * what another client of the account ordered since is the part it cannot see, for one interval at most. What the
 * fleet's own hosts ordered since is in the shared journal and counted as ever (in-flight.ts). A database that
 * cannot be used, a reader that does not publish within its lease, or a reading that is not an order list: the
 * host reads the list itself. The reader reads the offer (`GET /v1/energy/options`) beside the list's pages and
 * publishes it with them; the others take the cycle's offer from that reading (cycle-offer.ts).
 */
import type { OptionsResponse, Order } from '../client/types.js';
import { order as orderShape } from '../client/schemas.js';
import type { EnergyClient } from '../client/client.js';
import { sleep } from '../domain/sleep.js';
import type { RecentScan } from '../ordering/find-recent.js';
import type { ListSnapshot, ListTurn, SharedOrderList } from '../state/shared-list.js';
import { PERIOD_MS } from './need-id.js';
import { sharedOffer } from './shared-offer.js';
import { readAndPublish, readList } from './list-reading.js';

/** What a reading holds for a caller: its orders (newest first, of the addresses asked for) and how it ended. */
export interface Listing {
  orders: Order[];
  scan: RecentScan;
}

/** How far back a reading for the fleet goes: the oldest moment any address's window can start (need-id.ts). */
export const FLEET_REACH_MS = 2 * PERIOD_MS;
/** The reader's lease: its interval, within these bounds (a reading of 10 pages takes a second or two). */
const MIN_LEASE_MS = 5_000;
const MAX_LEASE_MS = 60_000;
/** Waits between looks while another host reads: doubling from the first, at most the last. */
const FIRST_WAIT_MS = 50;
const LONGEST_WAIT_MS = 1_000;

export function listLeaseMs(everyMs: number): number {
  return Math.min(MAX_LEASE_MS, Math.max(MIN_LEASE_MS, everyMs));
}

/** The list's pages; and the offer, which the fleet's reader reads beside them (a caller without it: not). */
type Pages = Pick<EnergyClient, 'orderPages'> & Partial<Pick<EnergyClient, 'options'>>;

export interface CycleListOptions {
  shared: SharedOrderList;
  everyMs: number;
  /** How old a reading this cycle takes (fresh-reading.ts); its interval when not given. */
  freshMs?: number | undefined;
  /** The service's addresses: the fleet's reading is asked for all of them at once, for every caller of the cycle. */
  addresses?: readonly string[] | undefined;
  trace?: ((line: string) => void) | undefined;
  /** The pause between looks (tests); and the monotonic clock the wait is bounded on. */
  sleep?: (ms: number) => Promise<void>;
  monotonicMs?: () => number;
}

export class CycleList {
  /** This cycle's own reading from the API (as the fleet's reader, or alone): read once, filtered per caller. */
  #own: Promise<Listing> | undefined;
  /** The store shares no list (the folder): every caller reads as it always has. */
  #none = false;
  /** The fleet's reading as this cycle first took it, and the addresses it holds the orders of. */
  #young: { snapshot: ListSnapshot; asked: ReadonlySet<string> } | undefined;
  /** This host's offer, read beside its reading as the fleet's reader (undefined: that read failed). */
  #ownOffer: Promise<OptionsResponse | undefined> | undefined;
  /** The offer read here this cycle, where none is shared (or usable). */
  #readHere: Promise<OptionsResponse> | undefined;
  /** Orders read by id this cycle: one the cycle settles and then counts in flight is asked for once. */
  readonly #byId = new Map<string, Order>();

  constructor(private readonly options: CycleListOptions) {}

  /** The order as this cycle already read it by id, else as `read` answers (kept for the rest of the cycle). */
  async orderById(id: string, read: () => Promise<Order>): Promise<Order> {
    const known = this.#byId.get(id);
    if (known !== undefined) return known;
    const order = await read();
    this.#byId.set(id, order);
    return order;
  }

  /**
   * The orders of `addresses` back to `oldestMs` (server clock), or undefined where the store shares no list.
   * `reachMs`: how far back this host reads the list when it is the one to read (at least as far as any host
   * of the fleet needs).
   */
  async read(
    client: Pages,
    addresses: ReadonlySet<string>,
    oldestMs: number,
    reachMs: number,
  ): Promise<Listing | undefined> {
    if (this.#none) return undefined;
    const young = this.#young;
    if (this.#own === undefined && young !== undefined && [...addresses].every((a) => young.asked.has(a))) {
      const listing = usable(young.snapshot, oldestMs);
      if (listing !== undefined) return only(listing, addresses);
    }
    if (this.#own === undefined) {
      const asked = new Set([...addresses, ...(this.options.addresses ?? [])]);
      const snapshot = await this.#turn(client, [...asked], Math.min(reachMs, oldestMs));
      if (snapshot === 'none') return undefined;
      if (snapshot !== undefined) {
        this.#young = { snapshot, asked };
        const listing = usable(snapshot, oldestMs);
        if (listing !== undefined) return only(listing, addresses);
        this.options.trace?.("energy: the fleet's reading of the order list cannot be used: read here");
        this.#own = readList(client, Math.min(reachMs, oldestMs));
      }
    }
    return only(await this.#own!, addresses);
  }

  /**
   * The cycle's offer: the one read beside this host's reading as the fleet's reader, or the fleet's reading's
   * (the turn taken now, for `addresses` and the service's, when the cycle has not taken it yet: `reachMs` is
   * awaited only if this host is to read the list); else (no shared list, no usable offer, the reader's own read
   * failed) read here, once for the cycle's claim slices (a read that failed is not kept).
   */
  async offer(
    client: Pages & Pick<EnergyClient, 'options'>,
    addresses: ReadonlySet<string>,
    reachMs: number | Promise<number>,
  ): Promise<OptionsResponse> {
    if (!this.#none && this.#own === undefined && this.#young === undefined) {
      const asked = new Set([...addresses, ...(this.options.addresses ?? [])]);
      const snapshot = await this.#turn(client, [...asked], reachMs);
      if (snapshot !== undefined && snapshot !== 'none') this.#young = { snapshot, asked };
    }
    const young = this.#young;
    const shared =
      this.#ownOffer !== undefined
        ? await this.#ownOffer
        : young === undefined
          ? undefined
          : sharedOffer(young.snapshot.offer);
    if (shared !== undefined) return shared;
    if (this.#readHere === undefined) {
      const started = client.options();
      this.#readHere = started;
      started.catch(() => {
        if (this.#readHere === started) this.#readHere = undefined;
      });
    }
    return this.#readHere;
  }

  /** The fleet's reading, or this host's own (started in #own), or 'none'. */
  async #turn(
    client: Pages,
    addresses: string[],
    reachMs: number | Promise<number>,
  ): Promise<ListSnapshot | 'none' | undefined> {
    const { shared, everyMs, freshMs, trace } = this.options;
    const pause = this.options.sleep ?? sleep;
    const monotonic = this.options.monotonicMs ?? (() => performance.now());
    const leaseMs = listLeaseMs(everyMs);
    const deadline = monotonic() + leaseMs;
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(2 * wait, LONGEST_WAIT_MS)) {
      let turn: ListTurn;
      try {
        turn = await shared.take(addresses, freshMs ?? everyMs, leaseMs);
      } catch {
        trace?.('energy: the state store cannot share the order list now: read here');
        this.#reading(readList(client, reachMs));
        return undefined;
      }
      if (turn.kind === 'none') {
        this.#none = true;
        return 'none';
      }
      if (turn.kind === 'snapshot') return turn.snapshot;
      if (turn.kind === 'read') {
        trace?.('energy: this host reads the order list (and the offer) for the fleet this interval');
        // The offer beside the pages: the fleet's for this interval, and this cycle's own (offer() above).
        const offer = client.options?.().catch(() => undefined) ?? Promise.resolve(undefined);
        this.#ownOffer = offer;
        this.#reading(readAndPublish(client, reachMs, shared, turn.token, offer));
        return undefined;
      }
      if (monotonic() >= deadline) {
        trace?.("energy: the fleet's reader did not publish the order list within its lease: read here");
        this.#reading(readList(client, reachMs));
        return undefined;
      }
      await pause(wait);
    }
  }

  /**
   * This host's own reading, started from `#turn`: awaited by the cycle's `read`; a cycle that stops before that
   * (its offer refused, taken through `offer`) must not leave a failed reading unheard.
   */
  #reading(reading: Promise<Listing>): void {
    this.#own = reading;
    reading.catch(() => undefined);
  }
}

function only(listing: Listing, addresses: ReadonlySet<string>): Listing {
  return { orders: listing.orders.filter((order) => addresses.has(order.address)), scan: listing.scan };
}

/** The snapshot as a listing for a caller whose window starts at `oldestMs`, or undefined when it is not one. */
export function usable(snapshot: ListSnapshot, oldestMs: number): Listing | undefined {
  if (snapshot.reachMs > oldestMs) return undefined;
  const orders: Order[] = [];
  try {
    for (const [index, value] of snapshot.orders.entries()) orders.push(orderShape(value, `orders[${index}]`));
  } catch {
    return undefined;
  }
  const scan: RecentScan = {
    complete: snapshot.complete,
    oldestReadMs: snapshot.oldestReadMs ?? undefined,
    repeated: 0,
    outOfOrder: snapshot.outOfOrder,
    notices: [],
  };
  return { orders, scan };
}
