/**
 * The first half of `ensure`: what each address has, what is on its way, and what to buy at what price.
 * Reads only; nothing is bought here.
 */
import { UsageError } from '../errors.js';
import type { AddressState } from '../tron/address-state.js';
import type { EnsureDeps, EnsureItem, EnsureOptions, Purchase } from './ensure-types.js';
import { inFlightByAddress } from './in-flight.js';
import { mapLimit } from './map-limit.js';
import { readAddresses } from './read-chain.js';
import { shortfall } from './shortfall.js';

/** Quotes asked at once. */
export const API_CONCURRENCY = 4;

export interface Plan {
  items: EnsureItem[];
  purchases: Purchase[];
  /** The chain as last read, by address (to confirm arrival against, with --wait). */
  chain: Map<string, AddressState>;
  api: Awaited<ReturnType<EnsureDeps['api']>> | undefined;
}

function item(address: string, target: number, available: number): EnsureItem {
  return { address, available, in_flight: 0, target, bought: null, reason: 'enough', to_buy: 0, total_trx: null, capped: false, error: null };
}

export async function planEnsure(deps: EnsureDeps, options: EnsureOptions): Promise<Plan> {
  const target = options.energy;
  let chain = await readAddresses(deps.node, options.addresses);
  const items = options.addresses.map((address) => item(address, target, chain.get(address)!.energy_available));
  const short = new Set(items.filter((entry) => entry.available < target).map((entry) => entry.address));
  if (short.size === 0) return { items, purchases: [], chain, api: undefined };

  const api = await deps.api();
  const [inFlight, offer] = await Promise.all([inFlightByAddress(api.client, api.journal, short, (deps.nowMs ?? Date.now)()), api.client.options()]);
  if (!offer.duration_hours.includes(options.hours)) {
    throw new UsageError(`--hours ${options.hours} is not offered: use one of ${offer.duration_hours.join(', ')}`);
  }
  // Read again after the orders: one delivered in between then shows on chain instead of being missed by both.
  chain = new Map([...chain, ...(await readAddresses(deps.node, [...short]))]);
  const toBuy: EnsureItem[] = [];
  for (const entry of items) {
    if (!short.has(entry.address)) continue;
    const flight = inFlight.get(entry.address)!;
    entry.available = chain.get(entry.address)!.energy_available;
    entry.in_flight = flight.energy;
    if (flight.unknownRequests > 0) {
      deps.note(`energy: ${entry.address} has ${flight.unknownRequests} order request(s) with no known outcome, counted as in flight; settle them with \`${api.recoverCommand()}\``);
    }
    const plan = shortfall({ target, available: entry.available, inFlight: flight.energy, portion: offer.energy_per_portion, maxEnergy: offer.max_energy });
    if (plan.toBuy === 0) {
      entry.reason = entry.available >= target ? 'enough' : 'in_flight';
      continue;
    }
    entry.to_buy = plan.toBuy;
    entry.capped = plan.capped;
    toBuy.push(entry);
  }
  const quotes = await mapLimit(toBuy, API_CONCURRENCY, (entry) =>
    api.client.quote({ address: entry.address, energy: entry.to_buy, duration_hours: options.hours }),
  );
  const purchases = toBuy.map((entry, index) => {
    entry.total_trx = quotes[index]!.total_trx;
    return { item: entry, quote: quotes[index]! };
  });
  return { items, purchases, chain, api };
}
