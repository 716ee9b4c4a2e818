/**
 * What each short address needs: the server's clock and offer, this machine's own unsettled requests sent
 * again, what is on its way, the chain read again, the shortfall in whole portions, and a quote for each.
 * Nothing is bought here, but for those earlier requests (own-pending.ts).
 */
import type { OptionsResponse } from '../client/types.js';
import { burnTrx } from '../domain/burn.js';
import { UsageError } from '../domain/errors.js';
import { intakeDisabledError } from '../ordering/intake.js';
import { energyPriceOrNull } from '../tron/burn-cost.js';
import type { AddressState } from '../tron/address-state.js';
import { mapLimit } from '../domain/pool.js';
import type { EnsureApi, EnsureDeps, EnsureItem, EnsureOptions, Purchase } from './ensure-types.js';
import { inFlightByAddress } from './in-flight.js';
import { resendOwnPending } from './own-pending.js';
import { readAddresses } from './read-chain.js';
import { readServerClock, type ServerClock } from '../ordering/server-clock.js';
import { isShort, shortfall } from './shortfall.js';
import { failItem } from './item.js';
import { notOnChain } from './not-on-chain.js';

/** Quotes and orders in flight at once. */
export const API_CONCURRENCY = 4;

export interface Plan {
  purchases: Purchase[];
  /** The chain as last read, by address (to confirm arrival against, with --wait). */
  chain: Map<string, AddressState>;
  /** The server's clock, as this run read it. */
  clock: ServerClock;
}

/** Short but buying nothing: by drift alone, or covered by what is on its way. */
function withinTolerance(entry: EnsureItem, toleranceBp: number): EnsureItem['reason'] {
  return isShort(entry.target, entry.available, toleranceBp) ? 'in_flight' : 'within_tolerance';
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
): Promise<Plan> {
  const addresses = short.map((entry) => entry.address);
  const wanted = new Set(addresses);
  const [clock, offer] = await Promise.all([readServerClock(api.client, deps.nowMs ?? Date.now), api.client.options()]);
  assertOffered(offer, options.hours);
  const ceiling = deps.spendCeiling && { rule: deps.spendCeiling, clock };
  if (!options.dryRun) await resendOwnPending(api, wanted, deps.note, ceiling);
  const inFlight = await inFlightByAddress({
    client: api.client,
    journal: api.journal,
    addresses: wanted,
    clock,
    knownFinal: deps.knownFinal,
    trace: deps.trace,
    note: deps.note,
  });
  // Read again after the orders: one delivered in between then shows on chain instead of being missed by both.
  const chain = await readAddresses(deps.node, addresses);
  const toBuy: EnsureItem[] = [];
  for (const entry of short) {
    const flight = inFlight.get(entry.address)!;
    if (flight.failure !== undefined) {
      failItem(entry, flight.failure);
      continue;
    }
    const onChain = chain.get(entry.address)!;
    entry.available = onChain.energy_available;
    // Deliveries stamped ahead of the server's clock have arrived once the node's limit holds them, whatever
    // was used of them since: their stamps cannot say how long ago they were delivered (issue 32).
    const arrived =
      flight.stampedAheadEnergy > 0 && !isShort(flight.stampedAheadEnergy, onChain.energy_limit, options.toleranceBp);
    const counted = arrived
      ? {
          energy: flight.energy - flight.stampedAheadEnergy,
          deliveredEnergy: Math.max(0, flight.deliveredEnergy - flight.stampedAheadEnergy),
        }
      : flight;
    entry.in_flight = countedInFlight(entry.target, entry.available, counted);
    if (flight.unknownRequests > 0) {
      deps.note(
        `energy: ${entry.address} has ${flight.unknownRequests} order request(s) with no known outcome, counted as in flight; settle them with \`${api.recoverCommand()}\``,
      );
    }
    const plan = shortfall({
      target: entry.target,
      available: entry.available,
      inFlight: entry.in_flight,
      portion: offer.energy_per_portion,
      maxEnergy: offer.max_energy,
      toleranceBp: options.toleranceBp,
    });
    if (plan.toBuy === 0) {
      entry.reason = entry.available >= entry.target ? 'enough' : withinTolerance(entry, options.toleranceBp);
      continue;
    }
    // Short while a delivery lasts that the node does not show: the node is wrong, not the supply.
    const unseen = notOnChain(flight.delivered, chain.get(entry.address)!, options.toleranceBp, deps.node.url);
    if (unseen !== undefined) {
      failItem(entry, unseen, 'not_on_chain');
      continue;
    }
    const held = deps.holdBack?.(entry.address);
    if (held !== undefined) {
      failItem(entry, held, 'delivery_failed');
      continue;
    }
    entry.to_buy = plan.toBuy;
    entry.capped = plan.capped;
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
  return { purchases, chain, clock };
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
