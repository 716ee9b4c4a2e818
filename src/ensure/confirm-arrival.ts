/**
 * `ensure --wait`: each order followed to a final state (as `order wait` does), then the chain read again
 * until it shows the energy, within `--tolerance`, or the grace for a node behind the API runs out.
 */
import { OrderFailedError } from '../domain/cli-errors.js';
import { sleep } from '../domain/sleep.js';
import { formatInteger } from '../domain/text-forms.js';
import { followToFinal } from '../ordering/follow-order.js';
import { finalAndFailed } from '../client/wait-for-order.js';
import { mapLimit } from '../domain/pool.js';
import type { EnsureApi, EnsureDeps, EnsureItem, EnsureOptions } from './ensure-types.js';
import { failingItemOn } from './item.js';
import { API_CONCURRENCY, type Plan } from './plan-ensure.js';
import { readAddresses } from './read-chain.js';
import { arrivalExpected } from './shortfall.js';

/** How long the chain may lag behind a delivery the API reports, before we say the energy did not arrive. */
const ARRIVAL_GRACE_MS = 10_000;

export async function confirmPurchases(
  deps: EnsureDeps,
  api: EnsureApi,
  options: EnsureOptions,
  plan: Plan,
): Promise<void> {
  const placed = plan.purchases.filter(({ item }) => item.reason === 'bought');
  await mapLimit(placed, API_CONCURRENCY, async ({ item }) => {
    await failingItemOn(item, () => confirm(deps, api, options.waitSeconds ?? 0, options.toleranceBp, plan, item));
    // The order failed at delivery (its price refunded): the service's reason for it, also in one run.
    const final = item.bought;
    if (item.error !== null && final !== null && finalAndFailed(final)) item.reason = 'delivery_failed';
  });
}

async function confirm(
  deps: EnsureDeps,
  api: EnsureApi,
  waitSeconds: number,
  toleranceBp: number,
  plan: Plan,
  item: EnsureItem,
): Promise<void> {
  const label = (line: string) => line.replace(/^energy: order (\S+)/, `energy: order $1 for ${item.address}`);
  await followToFinal(
    {
      client: api.client,
      progress: deps.progress === undefined ? undefined : (line) => deps.progress?.(label(line)),
      print: async (order) => {
        item.bought = order;
      },
      waitCommand: api.waitCommand,
      intervalMs: deps.pollMs ?? 1000,
    },
    item.bought!,
    waitSeconds,
  );
  const final = item.bought!;
  // Usage in between could lower it, so this asks only for what was there plus what was bought, less drift.
  const expected = arrivalExpected(plan.chain.get(item.address)!.energy_available, item.to_buy, toleranceBp);
  const now = deps.nowMs ?? (() => performance.now());
  const deadline = now() + ARRIVAL_GRACE_MS;
  for (;;) {
    const available = (await readAddresses(deps.node, [item.address])).get(item.address)!.energy_available;
    if (available >= expected) {
      // `available` stays the reading the purchase was based on: after alone made every buy look needless.
      item.available_after = available;
      return;
    }
    if (now() >= deadline) {
      throw new OrderFailedError(
        `order ${final.id} is delivered, but the TRON node shows ${formatInteger(available)} energy available at ${item.address}, not the ${formatInteger(expected)} expected`,
        {
          hint: `check again with \`energy address ${item.address}\`; is --tron-node on the API's network?`,
        },
      );
    }
    await sleep(deps.pollMs ?? 1000);
  }
}
