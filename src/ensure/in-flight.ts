/**
 * Energy bought for an address and not on chain yet, so that a run soon after another does not buy the
 * same shortfall again, and each need's anchor (see need-id.ts). In flight: orders in the account's list,
 * read back through the window, that are on their way (on-its-way.ts: not final, or delivered so recently
 * that the node may not show it); this machine's journal records whose outcome is unknown (they may be
 * orders the list does not show yet); and this machine's orders that the list no longer reaches (a large
 * batch since), followed by id. Erring this way buys too little at worst, which the next run makes up; the
 * other way would buy twice. Every time is on the server's clock (ordering/server-clock.ts).
 */
import { mapLimit } from '../domain/pool.js';
import { orderIdOf, recordedOrder } from '../journal/record.js';
import { scanRecentOrders } from '../ordering/find-recent.js';
import { timestampMs } from '../domain/api-time.js';
import type { EnsureClient, EnsureJournal } from './ensure-types.js';
import { periodStart, windowStart, type Anchor } from './need-id.js';
import { energyOnItsWay } from './on-its-way.js';
import { deliveredAndLasting } from './not-on-chain.js';
import type { Order } from '../client/types.js';
import type { ServerClock } from '../ordering/server-clock.js';

/** What an order for an address's current need is derived from, and how to tell an earlier need's order. */
export interface Need {
  /** What this address's need is anchored to: the id of an order placed for it derives from this. */
  anchor: Anchor;
  /** Orders to the address older than this are not what an order for the current need could be. */
  windowStartMs: number;
  /**
   * When the list was read only in part (its newest 1,000 orders), the `created_at` of the oldest order
   * read: an order older than that could not be seen, so one met under a derived id answered an earlier
   * need. Undefined when the whole window was read: an unseen order under a derived id is then newer than
   * the reading, another host's order for this very need.
   */
  listedSinceMs: number | undefined;
}

export interface InFlight extends Need {
  energy: number;
  /** Orders delivered past the node-lag grace and not expired: the node should show them (not-on-chain.ts). */
  delivered: Order[];
  /** Journal records for the address whose outcome is unknown (counted in `energy`). */
  unknownRequests: number;
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
  /** `--verbose` lines. */
  trace?: ((line: string) => void) | undefined;
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
        delivered: [],
        unknownRequests: 0,
        anchor: { periodStartMs: periodStart(address, nowMs) },
        windowStartMs: windowStart(address, nowMs),
        listedSinceMs: undefined,
      },
    ]),
  );
  // One reading for all: back to the earliest window of them.
  const oldest = Math.min(...[...result.values()].map((entry) => entry.windowStartMs));
  const listed = new Set<string>();
  const anchored = new Set<string>();
  const scan = await scanRecentOrders(
    client,
    oldest,
    (order) => {
      listed.add(order.client_request_id);
      const entry = result.get(order.address);
      if (entry === undefined) return;
      entry.energy += energyOnItsWay(order, nowMs);
      if (deliveredAndLasting(order, nowMs)) entry.delivered.push(order);
      // Newest first: the first order to the address within its window is its anchor.
      if (!anchored.has(order.address) && timestampMs(order.created_at) >= entry.windowStartMs) {
        anchored.add(order.address);
        entry.anchor = { orderId: order.id };
      }
    },
    { onPageSize: (size) => trace?.(`energy: order list read in pages of ${size ?? "the server's default size"}`) },
  );
  if (!scan.complete) {
    trace?.(
      `energy: the order list was read back to ${new Date(scan.oldestReadMs ?? nowMs).toISOString()} only (its newest orders), not through the window`,
    );
    for (const entry of result.values()) entry.listedSinceMs = scan.oldestReadMs;
  }
  for (const record of await journal.pending()) {
    const sent = recordedOrder(record);
    const entry = result.get(sent.address);
    if (entry === undefined || listed.has(record.client_request_id)) continue;
    entry.energy += sent.energy;
    entry.unknownRequests += 1;
  }
  // The journal's times are this host's own: the window moved onto its clock.
  const unlisted = (await journal.ordered(oldest - clock.offsetMs)).flatMap((record) => {
    const orderId = orderIdOf(record);
    const entry = result.get(recordedOrder(record).address);
    const wanted =
      orderId !== undefined && entry !== undefined && !listed.has(record.client_request_id) && !knownFinal.has(orderId);
    return wanted ? [{ orderId, entry }] : [];
  });
  await mapLimit(unlisted, FOLLOW_CONCURRENCY, async ({ orderId, entry }) => {
    const order = await client.getOrder(orderId);
    const energy = energyOnItsWay(order, clock.nowMs());
    // A delivery that lasts is followed on until it expires: the node should show it meanwhile.
    if (deliveredAndLasting(order, clock.nowMs())) entry.delivered.push(order);
    else if (energy === 0) knownFinal.add(order.id);
    else entry.energy += energy;
  });
  return result;
}
