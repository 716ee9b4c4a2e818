/**
 * `ensure` from start to end: claim the addresses (address-claim.ts: with a shared store, those no other host
 * holds), read each claimed one once; when some are short, count what is in flight, quote, consent and order
 * for the ones still held; let the claims go; then, with --wait, confirm on chain. No database transaction is
 * open while the node or the API is asked anything.
 */
import type { ClaimHolder } from './address-claim.js';
import { buyPurchases } from './buy-ensure.js';
import { confirmPurchases } from './confirm-arrival.js';
import type { EnsureDeps, EnsureItem, EnsureOptions } from './ensure-types.js';
import { newItem } from './item.js';
import { planShortfalls, type Plan } from './plan-ensure.js';
import { receivers } from './read-chain.js';
import { readItems } from './targets.js';
import { renewalCandidates } from './renewal-gate.js';

/** One item per address, in the order given; `error` set on those that failed. */
export async function runEnsure(deps: EnsureDeps, options: EnsureOptions): Promise<EnsureItem[]> {
  const claim = await deps.claim(options.addresses);
  let plan: Plan | undefined;
  const items = new Map<string, EnsureItem>();
  try {
    for (const [address, holder] of claim.elsewhere) items.set(address, claimedElsewhere(address, options, holder));
    const read = await readItems(deps, { ...options, addresses: claim.mine });
    for (const item of read.items) items.set(item.address, item);
    // --renew-before: every address that stands is looked at too, for a rental ending within the lead.
    const stands = read.items.filter((item) => standing(item, read.short));
    const renewal = await renewalCandidates(deps, options, stands, read.short.length > 0);
    const short = await receivers(deps, [...read.short, ...renewal], read.chain);
    if (short.length > 0) {
      const api = await deps.api();
      plan = await claim.decide(
        short.map((item) => item.address),
        async (held) => {
          const still = new Set(held);
          // Taken over while this host could not renew (frozen past its lease): another host decides them.
          for (const item of short.filter((entry) => !still.has(entry.address)))
            items.set(item.address, claimedElsewhere(item.address, options, undefined));
          const mine = short.filter((item) => still.has(item.address));
          if (mine.length === 0) return undefined;
          const planned = await planShortfalls(deps, api, options, mine, read.chain);
          await buyPurchases(deps, api, options, planned);
          return planned;
        },
      );
    }
  } finally {
    await claim.release();
  }
  if (plan !== undefined && options.waitSeconds !== undefined)
    await confirmPurchases(deps, await deps.api(), options, plan);
  return options.addresses.map((address) => items.get(address)!);
}

/** Not short and not failed: an address a renewal may be bought for. */
function standing(item: EnsureItem, short: readonly EnsureItem[]): boolean {
  return item.error === null && !short.includes(item);
}

/** An address another host holds: skipped, nothing read or bought, and not a failure. */
function claimedElsewhere(address: string, options: EnsureOptions, holder: ClaimHolder | undefined): EnsureItem {
  const item = newItem(address, options.energy ?? 0, 0);
  item.available = null;
  item.reason = 'claimed_elsewhere';
  if (holder !== undefined) item.claimed_by = holder;
  return item;
}
