/**
 * `ensure` from start to end: claim the addresses (state/address-claim.ts: with a shared store, those no other host
 * holds), read each claimed one once; when some are short, count what is in flight, quote, consent and order
 * for the ones still held; let the claims go; then, with --wait, confirm on chain. No database transaction is
 * open while the node or the API is asked anything.
 */
import type { AddressClaim, ClaimHolder } from '../state/address-claim.js';
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
  const items = new Map<string, EnsureItem>();
  const plans: Plan[] = [];
  // A service new to its fleet claims in slices (state/address-claim.ts `more`): each decided before the next.
  for (let claim = await deps.claim(options.addresses); ;) {
    const plan = await decideClaimed(deps, options, claim, items);
    if (plan !== undefined) plans.push(plan);
    if (claim.more === undefined) break;
    claim = await deps.claim(options.addresses, claim.more);
  }
  if (options.waitSeconds !== undefined)
    for (const plan of plans) await confirmPurchases(deps, await deps.api(), options, plan);
  return options.addresses.map((address) => items.get(address)!);
}

/**
 * The addresses of one claim: read, and where short, counted, quoted and bought; then let go, saying which were
 * decided. A dry run decides nothing, nor does a run stopped before its decision (consent, --max-total, an
 * error): those addresses are left as due as they were, for this host's next cycle or another host's.
 */
async function decideClaimed(
  deps: EnsureDeps,
  options: EnsureOptions,
  claim: AddressClaim,
  items: Map<string, EnsureItem>,
): Promise<Plan | undefined> {
  let decided: string[] = [];
  try {
    // Decided in an earlier slice of this cycle (so not due now): its item stands.
    for (const [address, holder] of claim.elsewhere)
      if (!items.has(address)) items.set(address, claimedElsewhere(address, options, holder));
    // Decided in an earlier slice of this cycle, and due again because the cycle outlasted its interval: its
    // item stands (one decision an address a cycle), or the order it bought would go unreported and unfollowed.
    const fresh = claim.mine.filter((address) => !standsDecided(items.get(address)));
    const read = await readItems(deps, { ...options, addresses: fresh });
    for (const item of read.items) items.set(item.address, item);
    // --renew-before: every address that stands is looked at too, for a rental ending within the lead.
    const stands = read.items.filter((item) => standing(item, read.short));
    const renewal = await renewalCandidates(deps, options, stands, read.short.length > 0);
    const short = await receivers(deps, [...read.short, ...renewal], read.chain);
    let plan: Plan | undefined;
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
    if (!options.dryRun) decided = claim.mine.filter((address) => standsDecided(items.get(address)));
    return plan;
  } finally {
    await claim.release(decided);
  }
}

/** Read and settled for this interval: enough, on its way or bought, not failed nor left to another host. */
function standsDecided(item: EnsureItem | undefined): boolean {
  return item !== undefined && item.error === null && item.reason !== 'claimed_elsewhere';
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
