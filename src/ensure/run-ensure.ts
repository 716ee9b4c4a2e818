/**
 * `ensure` from start to end: read every address; when some are short, count what is in flight, quote,
 * consent and order (alone among this machine's runs); then, with --wait, confirm on chain.
 */
import { buyPurchases, confirmPurchases } from './buy-ensure.js';
import type { EnsureDeps, EnsureItem, EnsureOptions } from './ensure-types.js';
import { planShortfalls } from './plan-ensure.js';
import { readAddresses } from './read-chain.js';

function item(address: string, target: number, available: number): EnsureItem {
  return {
    address,
    available,
    in_flight: 0,
    target,
    bought: null,
    reason: 'enough',
    to_buy: 0,
    total_trx: null,
    capped: false,
    error: null,
  };
}

/** One item per address, in the order given; `error` set on those that failed. */
export async function runEnsure(deps: EnsureDeps, options: EnsureOptions): Promise<EnsureItem[]> {
  const chain = await readAddresses(deps.node, options.addresses);
  const items = options.addresses.map((address) => item(address, options.energy, chain.get(address)!.energy_available));
  const short = items.filter((entry) => entry.available < entry.target);
  if (short.length === 0) return items;
  const api = await deps.api();
  const plan = await deps.exclusive(async () => {
    const planned = await planShortfalls(deps, api, options, short);
    await buyPurchases(deps, api, options, planned.purchases);
    return planned;
  });
  if (options.waitSeconds !== undefined) await confirmPurchases(deps, api, options.waitSeconds, plan);
  return items;
}
