/**
 * `ensure` from start to end: read every address; when some are short, count what is in flight, quote,
 * consent and order (alone among this machine's runs); then, with --wait, confirm on chain.
 */
import { buyPurchases } from './buy-ensure.js';
import { confirmPurchases } from './confirm-arrival.js';
import type { EnsureDeps, EnsureItem, EnsureOptions } from './ensure-types.js';
import { planShortfalls } from './plan-ensure.js';
import { receivers } from './read-chain.js';
import { readItems } from './targets.js';

/** One item per address, in the order given; `error` set on those that failed. */
export async function runEnsure(deps: EnsureDeps, options: EnsureOptions): Promise<EnsureItem[]> {
  const { items, short: needy } = await readItems(deps, options);
  const short = await receivers(deps, needy);
  if (short.length === 0) return items;
  const api = await deps.api();
  const plan = await deps.exclusive(
    async () => {
      const planned = await planShortfalls(deps, api, options, short);
      await buyPurchases(deps, api, options, planned);
      return planned;
    },
    short.map((item) => item.address),
  );
  if (options.waitSeconds !== undefined) await confirmPurchases(deps, api, options, plan);
  return items;
}
