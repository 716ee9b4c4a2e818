/**
 * Buying for `ensure`: one consent and one --max-total for the sum, then each order through the journal
 * (sendJournaled, the program's one way of placing orders); with --wait, each order followed and the chain
 * read again to confirm that the energy arrived.
 */
import { randomUUID } from 'node:crypto';
import { orderRequestBody } from '../client/client.js';
import { endedUndelivered, waitUntilFinal } from '../client/wait-for-order.js';
import { CliError, ExitCode, SIGNAL_EXIT_CODES } from '../domain/errors.js';
import { compareAmounts, sumAmounts } from '../domain/money.js';
import { sleep } from '../domain/sleep.js';
import { refuseAboveMax, requireConsent } from '../ordering/consent.js';
import { sendJournaled } from '../ordering/send-journaled.js';
import type { EnsureApi, EnsureDeps, EnsureItem, EnsureOptions, Purchase } from './ensure-types.js';
import { mapLimit } from './map-limit.js';
import { API_CONCURRENCY, type Plan } from './plan-ensure.js';
import { readAddresses } from './read-chain.js';

const INTERRUPT_CODES = new Set<number>(Object.values(SIGNAL_EXIT_CODES));

/** How long the chain may lag behind a delivery the API reports, before we say the energy did not arrive. */
const ARRIVAL_GRACE_MS = 10_000;

/** Records a failed line; a bug or Ctrl-C/SIGTERM ends the run instead (what is in flight is journaled). */
async function recording(item: EnsureItem, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof CliError) || INTERRUPT_CODES.has(error.exitCode)) throw error;
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

async function place(api: EnsureApi, options: EnsureOptions, { item, quote }: Purchase): Promise<void> {
  const id = randomUUID();
  const body = orderRequestBody({
    client_request_id: id,
    address: item.address,
    energy: item.to_buy,
    duration_hours: options.hours,
    expected_total_trx: quote.total_trx,
  });
  const { record } = await api.journal.begin(id, body);
  item.bought = (await sendJournaled(api, record)).order;
  item.reason = 'bought';
}

export async function confirmPurchases(
  deps: EnsureDeps,
  api: EnsureApi,
  waitSeconds: number,
  plan: Plan,
): Promise<void> {
  const placed = plan.purchases.filter(({ item }) => item.reason === 'bought');
  await mapLimit(placed, API_CONCURRENCY, ({ item }) =>
    recording(item, () => confirm(deps, api, waitSeconds, plan, item)),
  );
}

/** Follows the order to a final state, then waits (briefly) for its energy to show on chain. */
async function confirm(
  deps: EnsureDeps,
  api: EnsureApi,
  waitSeconds: number,
  plan: Plan,
  item: EnsureItem,
): Promise<void> {
  const order = item.bought!;
  deps.progress?.(`energy: order ${order.id} for ${item.address} is ${order.status}; waiting until it is final…`);
  const final = await waitUntilFinal(api.client, order, {
    intervalMs: deps.pollMs ?? 1000,
    timeoutMs: waitSeconds * 1000,
    onChange: (next) => deps.progress?.(`energy: order ${next.id} for ${item.address} is ${next.status}`),
  });
  item.bought = final;
  if (endedUndelivered(final)) {
    const why =
      final.failure === null
        ? `ended (status ${final.status}) without delivery`
        : `${final.failure.code}: ${final.failure.message}`;
    throw new CliError(`order ${final.id} failed: ${why}`, ExitCode.orderFailed);
  }
  // Usage in between could lower it, so this asks only for what was there plus what was bought.
  const expected = plan.chain.get(item.address)!.energy_available + item.to_buy;
  const now = deps.nowMs ?? Date.now;
  const deadline = now() + ARRIVAL_GRACE_MS;
  for (;;) {
    const available = (await readAddresses(deps.node, [item.address])).get(item.address)!.energy_available;
    if (available >= expected) {
      item.available = available;
      return;
    }
    if (now() >= deadline) {
      throw new CliError(
        `order ${final.id} is delivered, but the TRON node shows ${available} energy available at ${item.address}, not the ${expected} expected`,
        ExitCode.orderFailed,
        {
          hint: `check again with \`energy address ${item.address}\`; is --tron-node on the API's network?`,
        },
      );
    }
    await sleep(deps.pollMs ?? 1000);
  }
}
