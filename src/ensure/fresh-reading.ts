/**
 * How old a reading of the fleet's order list a service's cycle takes (cycle-list.ts): by its interval, and by its
 * own cycles where they outlast the interval (issue 47: one host an interval reads the list).
 */

/** A reading is used up to this share of the host's last cycle (start to start): a host alone still reads each cycle. */
const CYCLE_SHARE = 0.85;
/** …and never past its interval or a minute, whichever is longer (the shortest interval the capacity page uses). */
const LONGEST_MS = 60_000;

/**
 * How old a reading this host takes from the fleet: its interval; or, where its cycles outlast the interval,
 * 0.85 of its last cycle (up to a minute). A host alone whose cycle takes longer than its interval reads the
 * list once a cycle, so the fleet's hosts, whose cycles are not aligned, would otherwise read it every interval,
 * more than once a host's cycle, for no order anyone can see sooner: what the reading cannot see (another
 * client's orders since) is at most what a host alone misses over its own cycle.
 */
export function freshForMs(everyMs: number, lastCycleMs: number | undefined): number {
  if (lastCycleMs === undefined) return everyMs;
  return Math.max(everyMs, Math.min(LONGEST_MS, Math.floor(CYCLE_SHARE * lastCycleMs)));
}
