/**
 * Buying for `ensure`: one consent and one --max-total for the sum, then each order through the journal
 * (sendJournaled, the program's one way of placing orders); with --wait, each order followed and the chain
 * read again to confirm that the energy arrived.
 */
import { orderRequestBody, type CreatedOrder } from '../client/client.js';
import type { Order } from '../client/types.js';
import { isFinal } from '../client/wait-for-order.js';
import { ApiError, CliError, ConflictError, OrderFailedError, isInterruption } from '../domain/errors.js';
import { compareAmounts, sumAmounts } from '../domain/money.js';
import { sleep } from '../domain/sleep.js';
import { refuseUnaffordable } from '../ordering/afford.js';
import { refuseAboveMax, requireConsent } from '../ordering/consent.js';
import { findRecentOrders } from '../ordering/find-recent.js';
import { followToFinal } from '../ordering/follow-order.js';
import { sendJournaled } from '../ordering/send-journaled.js';
import { timestampMs } from '../domain/api-time.js';
import type { EnsureApi, EnsureDeps, EnsureItem, EnsureOptions, Purchase } from './ensure-types.js';
import { mapLimit } from '../batch/pool.js';
import { needId } from './need-id.js';
import { API_CONCURRENCY, type Plan } from './plan-ensure.js';
import { readAddresses } from './read-chain.js';
import { arrivalExpected } from './shortfall.js';

/** How long the chain may lag behind a delivery the API reports, before we say the energy did not arrive. */
const ARRIVAL_GRACE_MS = 10_000;

/** Records a failed line; a bug or Ctrl-C/SIGTERM ends the run instead (what is in flight is journaled). */
async function recording(item: EnsureItem, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof CliError) || isInterruption(error)) throw error;
    item.reason = 'failed';
    item.error = { exit_code: error.exitCode, message: error.message };
  }
}

export async function buyPurchases(
  deps: EnsureDeps,
  api: EnsureApi,
  options: EnsureOptions,
  purchases: Purchase[],
): Promise<void> {
  if (purchases.length === 0) return;
  const sum = sumAmounts(purchases.map((p) => p.quote.total_trx));
  if (options.dryRun) {
    for (const { item } of purchases) item.reason = 'would_buy';
    if (options.maxTotal !== undefined && compareAmounts(sum, options.maxTotal) > 0) {
      deps.note(
        `energy: the sum of the quotes ${sum} TRX is above --max-total ${options.maxTotal}: a real run would buy nothing (exit 5)`,
      );
    }
    return;
  }
  await refuseAboveMax(sum, options.maxTotal, 'the sum of the quotes');
  if (options.placeWhatFits !== true) {
    await refuseUnaffordable(api.client, {
      total: sum,
      quoteRefused: purchases.some(({ quote }) => !quote.can_afford),
      quotes: purchases.length,
      hint: 'add TRX to the balance, or add --place-what-fits to buy for the addresses it covers',
    });
  }
  const orders = purchases.length === 1 ? 'this order' : `these ${purchases.length} orders`;
  await requireConsent({
    terminal: deps.terminal,
    given: options.yes,
    details: purchases.map(
      ({ item, quote }) =>
        `  ${item.address}  ${item.to_buy} energy, ${options.hours} h  ${quote.total_trx} TRX${quote.activation_trx === null ? '' : ' (with activation)'}`,
    ),
    question: `Buy ${orders} for ${sum} TRX in all?`,
    refusal: `not buying ${purchases.length === 1 ? 'an order' : `${purchases.length} orders`} for ${sum} TRX without consent`,
    hint: 'add --yes to accept the quoted prices, or --dry-run to see them only',
    note: deps.note,
  });
  await api.journal.prune();
  await mapLimit(purchases, API_CONCURRENCY, (purchase) =>
    recording(purchase.item, () => place(api, options, purchase)),
  );
}

/** Hops along a chain of old orders met under derived ids before giving up (see `place`). */
const MAX_STALE_HOPS = 3;

/**
 * Orders under the need's derived id (need-id.ts). Created: bought. The server's existing order for it:
 * another host's for this need (in flight elsewhere), or this machine's own earlier request; an order
 * older than the need's window was placed for an earlier need that the list no longer shows, so the id
 * moves on past it, as every host's does. A 409 is another host's order only when the list shows the order
 * with that id: the 409's code is not in the spec, and 409 also means a price change or a low balance.
 */
async function place(api: EnsureApi, options: EnsureOptions, { item, quote, need }: Purchase): Promise<void> {
  let anchor = need.anchor;
  for (let hop = 0; hop <= MAX_STALE_HOPS; hop += 1) {
    const id = needId(item.address, anchor);
    const body = orderRequestBody({
      client_request_id: id,
      address: item.address,
      energy: item.to_buy,
      duration_hours: options.hours,
      expected_total_trx: quote.total_trx,
    });
    const { record, fresh } = await api.journal.begin(id, body);
    let answer: CreatedOrder;
    try {
      answer = await sendJournaled(api, record);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      const found = (await findRecentOrders(api.client, new Set([id]), need.windowStartMs, { slackMs: 0 })).get(id);
      if (found === undefined) throw error;
      return boughtElsewhere(item, found);
    }
    const { order, created } = answer;
    if (!created && timestampMs(order.created_at) < need.windowStartMs) {
      anchor = { orderId: order.id };
      continue;
    }
    if (created || !fresh) {
      item.bought = order;
      item.reason = 'bought';
      return;
    }
    return boughtElsewhere(item, order);
  }
  throw new ConflictError(
    `the order ids derived for ${item.address} all belong to old orders (${MAX_STALE_HOPS + 1} tried): nothing bought`,
  );
}

/** Another host ordered for this need: counted in flight (until final), nothing bought here. */
function boughtElsewhere(item: EnsureItem, order: Order): void {
  if (!isFinal(order)) item.in_flight += order.energy;
  item.reason = 'in_flight_elsewhere';
  item.to_buy = 0;
  item.total_trx = null;
}

export async function confirmPurchases(
  deps: EnsureDeps,
  api: EnsureApi,
  options: EnsureOptions,
  plan: Plan,
): Promise<void> {
  const placed = plan.purchases.filter(({ item }) => item.reason === 'bought');
  await mapLimit(placed, API_CONCURRENCY, ({ item }) =>
    recording(item, () => confirm(deps, api, options.waitSeconds ?? 0, options.toleranceBp, plan, item)),
  );
}

/** Follows the order to a final state (as `order wait` does), then waits briefly for its energy on chain. */
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
  const now = deps.nowMs ?? Date.now;
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
        `order ${final.id} is delivered, but the TRON node shows ${available} energy available at ${item.address}, not the ${expected} expected`,
        {
          hint: `check again with \`energy address ${item.address}\`; is --tron-node on the API's network?`,
        },
      );
    }
    await sleep(deps.pollMs ?? 1000);
  }
}
