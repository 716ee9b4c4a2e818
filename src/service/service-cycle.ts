/**
 * One cycle of the service: the orders it placed earlier followed (settled when final: spent, or refunded
 * and backed off; with a shared store, from the cycle's one reading of the order list), then one `ensure` run
 * that holds back from addresses backing off, then the balance read when the metrics or --min-balance want it.
 * What it finds goes to the observer.
 */
import type { EnsureDeps, EnsureItem, EnsureOptions } from '../ensure/ensure-types.js';
import { runEnsure } from '../ensure/run-ensure.js';
import type { ServiceObserver } from './observer.js';
import { PlacedOrders } from './placed-orders.js';
import { OnceNotes } from './once-notes.js';
import { CycleList } from '../ensure/cycle-list.js';
import { freshForMs } from '../ensure/fresh-reading.js';
import { onceACycle } from '../ensure/cycle-clock.js';

export function serviceCycle(
  deps: EnsureDeps,
  run: EnsureOptions,
  observer: ServiceObserver,
  everyMs?: number,
): () => Promise<EnsureItem[]> {
  const ceiling = deps.spendCeiling;
  const placed = new PlacedOrders(ceiling);
  const notes = new OnceNotes(deps.note);
  const cycleDeps: EnsureDeps = {
    ...deps,
    holdBack: (address) => placed.holdBack(address),
    addressNote: (key, line) => notes.note(key, line),
  };
  let cycle = 0;
  let addresses = run.addresses;
  // The last cycle's length, start to start, on the monotonic clock: how old a reading of the fleet's it takes.
  let startedMs: number | undefined;
  return async () => {
    cycle += 1;
    placed.begin(cycle);
    const nowMs = performance.now();
    const lastCycleMs = startedMs === undefined ? undefined : nowMs - startedMs;
    startedMs = nowMs;
    // The order list read once this cycle, for settling and deciding; in a fleet, by one host an interval.
    const shared = deps.sharedList;
    const list =
      shared === undefined || everyMs === undefined
        ? undefined
        : new CycleList({ shared, everyMs, freshMs: freshForMs(everyMs, lastCycleMs), addresses, trace: deps.trace });
    if (placed.following) observer.ordersSettled(await placed.settle((await deps.api()).client, list));
    // --file: read again each cycle, so that an address added or removed takes effect without a restart.
    if (run.rereadAddresses !== undefined) addresses = await run.rereadAddresses(addresses);
    const items = await runEnsure({ ...cycleDeps, cycleList: list, cycleClock: onceACycle() }, { ...run, addresses });
    notes.endCycle();
    placed.placed(items.flatMap((item) => (item.bought === null ? [] : [item.bought])));
    if (ceiling !== undefined) {
      observer.spendChecked(await ceiling.leftNow((deps.nowMs ?? Date.now)()), items, ceiling.limit);
    }
    if (observer.wantsBalance) observer.balanceRead((await (await deps.api()).client.balance()).available_trx);
    return items;
  };
}
