/**
 * What each short address needs: the server's clock (a service's read once a cycle, for all its claim slices:
 * cycle-clock.ts) and the offer (in a fleet's service, the one read with the fleet's reading of the order list:
 * cycle-offer.ts), this machine's own unsettled requests sent again, what is on its way, the chain read again,
 * the shortfall in whole portions, and a quote for each. Nothing is bought here, but for those earlier requests
 * (own-pending.ts).
 */
import type { OptionsResponse } from '../client/types.js';
import { burnTrx } from '../domain/burn.js';
import { UsageError } from '../domain/errors.js';
import { intakeDisabledError } from '../ordering/intake.js';
import { energyPriceOrNull } from '../tron/burn-cost.js';
import type { AddressState } from '../tron/address-state.js';
import { mapLimit } from '../domain/pool.js';
import type { EnsureApi, EnsureDeps, EnsureItem, EnsureOptions, Purchase } from './ensure-types.js';
import { inFlightByAddress, type InFlight } from './in-flight.js';
import { resendOwnPending } from './own-pending.js';
import { readAddresses } from './read-chain.js';
import { readServerClock, type ServerClock } from '../ordering/server-clock.js';
import { cycleOffer } from './cycle-offer.js';
import { isShort, shortfall } from './shortfall.js';
import { failItem, noteAbout } from './item.js';
import { notOnChain } from './not-on-chain.js';
import { availableAfter, endingWithin } from './renewal.js';
import { landedEnergy, type LimitBefore } from './landed.js';

/** Quotes and orders in flight at once. */
export const API_CONCURRENCY = 4;

export interface Plan {
  purchases: Purchase[];
  /** The chain as last read, by address (to confirm arrival against, with --wait). */
  chain: Map<string, AddressState>;
  /** The server's clock, as this run read it. */
  clock: ServerClock;
  /** When the chain was read before buying, or earlier (server clock). */
  readMs: number;
}

/** Short but buying nothing: by drift alone, or covered by what is on its way. */
function withinTolerance(entry: EnsureItem, toleranceBp: number): EnsureItem['reason'] {
  return isShort(entry.target, entry.available ?? 0, toleranceBp) ? 'in_flight' : 'within_tolerance';
}

/** The offer allows this run's orders: --hours among the durations, and intake on (else every order is a 409). */
function assertOffered(offer: OptionsResponse, hours: number): void {
  if (!offer.duration_hours.includes(hours)) {
    throw new UsageError(`--hours ${hours} is not offered: use one of ${offer.duration_hours.join(', ')}`);
  }
  if (!offer.intake_enabled) throw intakeDisabledError();
}

export async function planShortfalls(
  deps: EnsureDeps,
  api: EnsureApi,
  options: EnsureOptions,
  short: EnsureItem[],
  firstReading: ReadonlyMap<string, AddressState>,
): Promise<Plan> {
  const addresses = short.map((entry) => entry.address);
  const wanted = new Set(addresses);
  const read = () => readServerClock(api.client, deps.nowMs ?? Date.now);
  const clockRead = deps.cycleClock?.(read) ?? read();
  const [clock, offer] = await Promise.all([clockRead, cycleOffer(api.client, deps.cycleList, wanted, clockRead)]);
  assertOffered(offer, options.hours);
  const ceiling = deps.spendCeiling && { rule: deps.spendCeiling, clock };
  if (!options.dryRun) await resendOwnPending(api, wanted, deps.note, ceiling);
  const inFlight = await inFlightByAddress({
    client: api.client,
    journal: api.journal,
    addresses: wanted,
    clock,
    knownFinal: deps.knownFinal,
    finalOrders: deps.finalOrders,
    list: deps.cycleList,
    trace: deps.trace,
    note: deps.note,
  });
  const chain = new Map(firstReading);
  const sizing = (entry: EnsureItem) =>
    size(
      entry,
      inFlight.get(entry.address)!,
      chain.get(entry.address)!,
      offer,
      options,
      clock.nowMs(),
      deps.limitsBefore,
    );
  // Sized on the first reading: an address whose shortfall is on its way costs no second read. The others are
  // read again (after the order list): one delivered in between then shows on chain instead of being missed.
  const again = short.filter((entry) => sizing(entry) > 0);
  for (const entry of short) {
    const { unknownRequests, failure } = inFlight.get(entry.address)!;
    if (unknownRequests > 0 && failure === undefined)
      noteAbout(
        deps,
        `unknown ${entry.address}`,
        `energy: ${entry.address} has ${unknownRequests} order request(s) with no known outcome, counted as in flight; settle them with \`${api.recoverCommand()}\``,
      );
  }
  // Read at this time or later: what a placed order's reading-before is stamped with (landed.ts).
  const readMs = clock.nowMs();
  for (const [address, state] of await readAddresses(
    deps.node,
    again.map((entry) => entry.address),
  ))
    chain.set(address, state);
  const toBuy: EnsureItem[] = [];
  for (const entry of again) {
    const flight = inFlight.get(entry.address)!;
    if (sizing(entry) === 0) continue;
    // Short while a delivery lasts that the node does not show: the node is wrong, not the supply.
    const unseen = notOnChain(
      flight.delivered,
      chain.get(entry.address)!,
      options.toleranceBp,
      deps.node.url,
      clock.nowMs(),
    );
    if (unseen !== undefined) {
      failItem(entry, unseen, 'not_on_chain');
      continue;
    }
    const held = deps.holdBack?.(entry.address);
    if (held !== undefined) {
      failItem(entry, held, 'delivery_failed');
      continue;
    }
    toBuy.push(entry);
  }
  const [quotes, burn] = await Promise.all([
    mapLimit(toBuy, API_CONCURRENCY, (entry) =>
      api.client.quote({ address: entry.address, energy: entry.to_buy, duration_hours: options.hours }),
    ),
    toBuy.length === 0 ? null : energyPriceOrNull(deps.node, deps.note),
  ]);
  const purchases = toBuy.map((entry, index) => {
    entry.total_trx = quotes[index]!.total_trx;
    entry.burn_trx = burn === null ? null : burnTrx(entry.to_buy, burn);
    return { item: entry, quote: quotes[index]!, need: inFlight.get(entry.address)! };
  });
  return { purchases, chain, clock, readMs };
}

/**
 * The item sized on `onChain` and what is in flight: its available energy, what counts in flight and, when
 * something is to be bought, `to_buy` (returned); else its reason (enough, within tolerance, in flight) and 0.
 */
function size(
  entry: EnsureItem,
  flight: InFlight,
  onChain: AddressState,
  offer: OptionsResponse,
  options: EnsureOptions,
  serverNowMs: number,
  before: ReadonlyMap<string, LimitBefore> | undefined,
): number {
  if (flight.failure !== undefined) {
    failItem(entry, flight.failure);
    return 0;
  }
  entry.available = onChain.energy_available;
  // Deliveries stamped ahead of the server's clock have arrived once the node's limit holds them, whatever
  // was used of them since: their stamps cannot say how long ago they were delivered (issue 32).
  const arrived =
    flight.stampedAheadEnergy > 0 && !isShort(flight.stampedAheadEnergy, onChain.energy_limit, options.toleranceBp);
  const ahead = arrived ? flight.stampedAheadEnergy : 0;
  // Deliveries the node's limit shows grown since before their orders: landed, whatever was spent (landed.ts).
  const shown = landedEnergy(flight.justDelivered, flight.rentals, onChain, before, options.toleranceBp);
  const counted = {
    energy: flight.energy - ahead - shown,
    deliveredEnergy: Math.max(0, flight.deliveredEnergy - ahead - shown),
  };
  entry.in_flight = countedInFlight(entry.target, entry.available, counted);
  const terms = { target: entry.target, inFlight: entry.in_flight, portion: offer.energy_per_portion };
  const limits = { maxEnergy: offer.max_energy, toleranceBp: options.toleranceBp };
  const now = shortfall({ ...terms, ...limits, available: entry.available });
  // --renew-before: what it will have once the rentals ending within the lead are gone (renewal.ts).
  const ending = endingWithin(flight.rentals, serverNowMs, options.renewBeforeMs ?? 0);
  const then = shortfall({ ...terms, ...limits, available: availableAfter(onChain, ending.energy) });
  const plan = then.toBuy > now.toBuy ? then : now;
  delete entry.early;
  if (plan === then && ending.firstEndMs !== undefined)
    entry.early = { reason: 'renewal', ends_at: new Date(ending.firstEndMs).toISOString() };
  entry.to_buy = plan.toBuy;
  entry.capped = plan.capped;
  if (plan.toBuy === 0)
    entry.reason = entry.available >= entry.target ? 'enough' : withinTolerance(entry, options.toleranceBp);
  return plan.toBuy;
}

/**
 * What is in flight for the address, a just-delivered order counted only up to what the chain does not show
 * (`target − available − the rest in flight`): read again after the order list, the chain often shows the
 * delivery already, and AVAILABLE and IN_FLIGHT would both count it. What is bought is the same either way:
 * target − available − in flight is cut at 0, and the cap only takes off what lies below 0.
 */
function countedInFlight(
  target: number,
  available: number,
  flight: { energy: number; deliveredEnergy: number },
): number {
  const notDelivered = flight.energy - flight.deliveredEnergy;
  const room = Math.max(0, target - available - notDelivered);
  return notDelivered + Math.min(flight.deliveredEnergy, room);
}
