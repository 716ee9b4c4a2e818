/**
 * The second half of `ensure`: one consent and one --max-total for the sum, then each order through the
 * journal (sendJournaled, the program's one way of placing orders), then with --wait each order followed
 * and the chain read again to confirm that the energy arrived.
 */
import { randomUUID } from 'node:crypto';
import { orderRequestBody } from '../client/client.js';
import { endedUndelivered, waitUntilFinal } from '../client/wait-for-order.js';
import { CliError, ExitCode, SIGNAL_EXIT_CODES } from '../errors.js';
import { compareAmounts, sumAmounts } from '../money.js';
import { refuseAboveMax, requireConsent } from '../ordering/consent.js';
import { sendJournaled } from '../ordering/send-journaled.js';
import type { EnsureDeps, EnsureOptions, Purchase } from './ensure-types.js';
import { mapLimit } from './map-limit.js';
import type { Plan } from './plan-ensure.js';
import { API_CONCURRENCY } from './plan-ensure.js';
import { readAddresses } from './read-chain.js';

const INTERRUPT_CODES = new Set<number>(Object.values(SIGNAL_EXIT_CODES));

/** How long the chain may lag behind a delivery the API reports, before we say the energy did not arrive. */
const ARRIVAL_GRACE_MS = 10_000;

export async function buyEnsure(deps: EnsureDeps, options: EnsureOptions, plan: Plan): Promise<void> {
  const { purchases, api } = plan;
  if (purchases.length === 0 || api === undefined) return;
  const sum = sumAmounts(purchases.map((p) => p.quote.total_trx));
  if (options.dryRun) {
    for (const { item } of purchases) item.reason = 'would_buy';
    if (options.maxTotal !== undefined && compareAmounts(sum, options.maxTotal) > 0) {
      deps.note(`energy: the sum of the quotes ${sum} TRX is above --max-total ${options.maxTotal}: a real run would buy nothing (exit 5)`);
    }
    return;
  }
  await refuseAboveMax(sum, options.maxTotal, 'the sum of the quotes');
  await requireConsent({
    terminal: deps.terminal,
    given: options.yes,
    details: purchases.map(({ item, quote }) => `  ${item.address}  ${item.to_buy} energy, ${options.hours} h  ${quote.total_trx} TRX${quote.activation_trx === null ? '' : ' (with activation)'}`),
    question: `Buy ${purchases.length === 1 ? 'this order' : `these ${purchases.length} orders`} for ${sum} TRX in all?`,
    refusal: `not buying ${purchases.length === 1 ? 'an order' : `${purchases.length} orders`} for ${sum} TRX without consent`,
    hint: 'add --yes to accept the quoted prices, or --dry-run to see them only',
    note: deps.note,
  });
  const sender = { client: api.client, journal: api.journal, recoverCommand: api.recoverCommand };
  await api.journal.prune();
  await mapLimit(purchases, API_CONCURRENCY, async (purchase) => {
    try {
      await place(sender, options, purchase);
      if (options.waitSeconds !== undefined) await confirm(deps, options.waitSeconds, plan, purchase);
    } catch (error) {
      // A bug, or Ctrl-C/SIGTERM: the run ends here (what is in flight is journaled), not one line of it.
      if (!(error instanceof CliError) || INTERRUPT_CODES.has(error.exitCode)) throw error;
      purchase.item.reason = 'failed';
      purchase.item.error = { exit_code: error.exitCode, message: error.message };
    }
  });
}

async function place(sender: Parameters<typeof sendJournaled>[0], options: EnsureOptions, { item, quote }: Purchase): Promise<void> {
  const id = randomUUID();
  const body = orderRequestBody({
    client_request_id: id,
    address: item.address,
    energy: item.to_buy,
    duration_hours: options.hours,
    expected_total_trx: quote.total_trx,
  });
  const { record } = await sender.journal.begin(id, body);
  item.bought = (await sendJournaled(sender, record)).order;
  item.reason = 'bought';
}

/** Follows the order to a final state, then waits (briefly) for its energy to show on chain. */
async function confirm(deps: EnsureDeps, waitSeconds: number, plan: Plan, { item }: Purchase): Promise<void> {
  const client = plan.api!.client;
  deps.progress?.(`energy: order ${item.bought!.id} for ${item.address} is ${item.bought!.status}; waiting until it is final…`);
  const final = await waitUntilFinal(client, item.bought!, {
    intervalMs: deps.pollMs ?? 1000,
    timeoutMs: waitSeconds * 1000,
    onChange: (next) => deps.progress?.(`energy: order ${next.id} for ${item.address} is ${next.status}`),
  });
  item.bought = final;
  if (endedUndelivered(final)) {
    const why = final.failure === null ? `ended (status ${final.status}) without delivery` : `${final.failure.code}: ${final.failure.message}`;
    throw new CliError(`order ${final.id} failed: ${why}`, ExitCode.orderFailed);
  }
  // Usage in between could lower it, so this asks only for what was there plus what was bought.
  const expected = plan.chain.get(item.address)!.energy_available + item.to_buy;
  const deadline = (deps.nowMs ?? Date.now)() + ARRIVAL_GRACE_MS;
  for (;;) {
    const now = (await readAddresses(deps.node, [item.address])).get(item.address)!;
    if (now.energy_available >= expected) {
      item.available = now.energy_available;
      return;
    }
    if ((deps.nowMs ?? Date.now)() >= deadline) {
      throw new CliError(
        `order ${final.id} is delivered, but the TRON node shows ${now.energy_available} energy available at ${item.address}, not the ${expected} expected`,
        ExitCode.orderFailed,
        { hint: `check again with \`energy address ${item.address}\`; is --tron-node on the API's network?` },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 1000));
  }
}
