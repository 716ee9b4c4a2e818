/**
 * Which addresses that stand are looked at for a renewal (--renew-before): all of them when the API is read
 * anyway (some address is short), else only those with a rental of this machine's journal whose term may still
 * run, so that a service whose addresses stand on energy of their own never reads the order list. Whether one
 * ends within the lead is not told from the journal: its times are this host's, and a host's clock may run
 * off the server's (or, against `energy sandbox --time-scale`, at another rate); it is decided on the
 * server's clock from the list and the orders followed by id (renewal.ts). The cost: while such a rental
 * runs, each cycle reads the order list once.
 */
import type { EnsureDeps, EnsureItem, EnsureOptions } from './ensure-types.js';
import { recordedOrder, orderIdOf } from '../journal/record.js';

/** Around a rental's end as the journal puts it: the lead, plus this much either side (clock drift, delivery). */
const MARGIN_MS = 15 * 60_000;
/** Records read back this far (rentals of up to a week; the journal keeps less anyway). */
const LOOK_BACK_MS = 7 * 86_400_000;

export async function renewalCandidates(
  deps: EnsureDeps,
  options: EnsureOptions,
  standing: readonly EnsureItem[],
  apiRead: boolean,
): Promise<EnsureItem[]> {
  const leadMs = options.renewBeforeMs ?? 0;
  if (leadMs <= 0 || standing.length === 0) return [];
  if (apiRead) return [...standing];
  const nowMs = (deps.nowMs ?? Date.now)();
  const { journal } = await deps.api();
  const records = await journal.ordered(
    nowMs - LOOK_BACK_MS,
    standing.map((item) => item.address),
  );
  const near = new Set<string>();
  for (const record of records) {
    if (orderIdOf(record) === undefined) continue;
    const order = recordedOrder(record);
    const end = Date.parse(record.journaled_at) + order.duration_hours * 3_600_000;
    if (end >= nowMs - MARGIN_MS) near.add(order.address);
  }
  return standing.filter((item) => near.has(item.address));
}
