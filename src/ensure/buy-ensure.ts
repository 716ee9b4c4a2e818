/**
 * Buying for `ensure`: one consent and one --max-total for the sum, then each order through the journal
 * (place-need.ts). Orders the balance cannot pay, or a sum above --max-total, are refused before consent, all
 * of them; with --place-what-fits, those the balance and --max-total cover are placed one after another in the
 * order given, and the others never sent.
 */
import { ConflictError } from '../domain/cli-errors.js';
import { compareAmounts, sumAmounts } from '../domain/money.js';
import { formatInteger } from '../domain/text-forms.js';
import { refuseUnaffordable } from '../ordering/afford.js';
import { refuseAboveMax, requireConsent } from '../ordering/consent.js';
import { mapLimit } from '../domain/pool.js';
import type { EnsureApi, EnsureDeps, EnsureOptions, Purchase, SpendReservation } from './ensure-types.js';
import { failItem, failingItemOn } from './item.js';
import { placeNeed } from './place-need.js';
import { API_CONCURRENCY, type Plan } from './plan-ensure.js';
import { fitInOrder } from '../ordering/what-fits.js';
import { dryRunCeiling } from './dry-run-ceiling.js';
import { rememberLimit } from './landed.js';

export async function buyPurchases(
  deps: EnsureDeps,
  api: EnsureApi,
  options: EnsureOptions,
  plan: Plan,
): Promise<void> {
  if (plan.purchases.length === 0) return;
  if (options.dryRun) return showDryRun(deps, api, options, await dryRunCeiling(deps, plan.purchases));
  const fitting = options.placeWhatFits === true ? await whatFits(api, plan.purchases, options) : plan.purchases;
  // Held in the --max-spend ledger before anything is asked or sent; what is never sent is given back.
  const reservation = await deps.spendCeiling?.reserve(fitting, plan.clock, api.client);
  try {
    await buyHeld(deps, api, options, plan, reservation?.purchases ?? fitting, reservation);
  } finally {
    // A hold that cannot be given back stays counted until it leaves the window: on the safe side.
    await reservation?.releaseUnsent().catch(() => undefined);
  }
}

async function buyHeld(
  deps: EnsureDeps,
  api: EnsureApi,
  options: EnsureOptions,
  plan: Plan,
  purchases: readonly Purchase[],
  reservation: SpendReservation | undefined,
): Promise<void> {
  if (purchases.length === 0) return;
  const sum = sumAmounts(purchases.map((p) => p.quote.total_trx));
  // With --place-what-fits the purchases are already those that fit under --max-total (whatFits).
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
    confirm: deps.confirm,
    given: options.yes,
    details: purchases.map(
      ({ item, quote }) =>
        `  ${item.address}  ${formatInteger(item.to_buy)} energy, ${options.hours} h  ${quote.total_trx} TRX${quote.activation_trx === null ? '' : ' (with activation)'}`,
    ),
    question: `Buy ${orders} for ${sum} TRX in all?`,
    refusal: `not buying ${purchases.length === 1 ? 'an order' : `${purchases.length} orders`} for ${sum} TRX without consent`,
    hint: 'add --yes to accept the quoted prices, or --dry-run to see them only',
    note: deps.note,
  });
  await api.journal.prune();
  // In the order given, one at a time, when only some fit: the balance pays the first ones listed.
  const concurrency = options.placeWhatFits === true ? 1 : API_CONCURRENCY;
  await mapLimit(purchases, concurrency, (purchase) =>
    failingItemOn(purchase.item, async () => {
      await placeNeed(api, options.hours, purchase, plan.clock.nowMs, reservation?.holdOf(purchase));
      const { bought, address } = purchase.item;
      const reading = plan.chain.get(address);
      if (deps.limitsBefore !== undefined && bought != null && reading !== undefined)
        rememberLimit(deps.limitsBefore, bought, { limit: reading.energy_limit, readMs: plan.readMs });
    }),
  );
}

async function showDryRun(
  deps: EnsureDeps,
  api: EnsureApi,
  options: EnsureOptions,
  purchases: readonly Purchase[],
): Promise<void> {
  for (const { item } of purchases) item.reason = 'would_buy';
  const totals = purchases.map((p) => p.quote.total_trx);
  const sum = sumAmounts(totals);
  if (options.maxTotal !== undefined && compareAmounts(sum, options.maxTotal) > 0 && options.placeWhatFits !== true) {
    deps.note(
      `energy: the sum of the quotes ${sum} TRX is above --max-total ${options.maxTotal}: a real run would buy nothing (exit 5)`,
    );
  }
  // The balance read once, as order batch --dry-run does: a dry run says what the real run would do with it.
  const { available_trx: available } = await api.client.balance();
  if (options.placeWhatFits === true) {
    const capped = options.maxTotal !== undefined && compareAmounts(options.maxTotal, available) < 0;
    const placed = fitInOrder(totals, capped ? options.maxTotal! : available).fits.filter(Boolean).length;
    if (placed < totals.length) {
      const by = capped ? `--max-total ${options.maxTotal}` : `the balance (${available} TRX available)`;
      deps.note(
        `energy: ${by} covers ${placed} of these ${totals.length} orders: a real run would place those, in the order given, and fail the others`,
      );
    }
  } else if (compareAmounts(sum, available) > 0 || purchases.some(({ quote }) => !quote.can_afford)) {
    deps.note(
      `energy: needs ${sum} TRX, ${available} available: a real run would be refused for the balance (exit 5), nothing placed`,
    );
  }
}

/**
 * The purchases the available balance pays for, in order, within --max-total when given (a service's
 * per-cycle cap: what fits under it is bought, as under --max-spend); each of the others fails without a
 * request.
 */
async function whatFits(api: EnsureApi, purchases: readonly Purchase[], options: EnsureOptions): Promise<Purchase[]> {
  const { available_trx: available } = await api.client.balance();
  const { maxTotal } = options;
  const capped = maxTotal !== undefined && compareAmounts(maxTotal, available) < 0;
  const budget = capped ? maxTotal : available;
  const { fits } = fitInOrder(
    purchases.map((p) => p.quote.total_trx),
    budget,
  );
  return purchases.filter(({ item, quote }, index) => {
    if (fits[index]) return true;
    const what = capped
      ? `--max-total ${maxTotal} has left after the addresses listed before it`
      : `the balance has left after the addresses listed before it (${available} TRX available)`;
    failItem(item, new ConflictError(`${quote.total_trx} TRX is more than ${what}: not ordered`));
    return false;
  });
}
