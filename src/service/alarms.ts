/**
 * The events an on-call can act on (pure): one per change, not one per cycle. `cycle_failed` when a run of
 * cycles that could not finish starts (the API or the node down), again as a reminder at most once an hour
 * while it lasts, and `recovered` when a cycle finishes again; `address_failed` when an address's run of
 * failures starts, with its reason and error, and `address_recovered` when the address stands again (enough
 * energy on chain). An order placed or on its way neither starts nor ends an address's run: an address
 * whose deliveries fail stays failing across the cycles that order for it.
 */
import type { EnsureItem } from '../ensure/ensure-types.js';
import type { CycleReport } from './service-loop.js';

/** A reminder that cycles still fail, at most this often. */
export const REMINDER_MS = 3_600_000;

export type AlarmEvent =
  | {
      event: 'cycle_failed';
      at: string;
      cycle: number;
      error: { exit_code: number; message: string };
      /** Cycles failed in a row so far, and since when (the first one's time). */
      failed_cycles: number;
      since: string;
      reminder: boolean;
    }
  | { event: 'recovered'; at: string; cycle: number; failed_cycles: number; since: string }
  | {
      event: 'address_failed';
      at: string;
      address: string;
      reason: EnsureItem['reason'];
      error: { exit_code: number; message: string };
    }
  | { event: 'address_recovered'; at: string; address: string; failed_cycles: number };

function stands(item: EnsureItem): boolean {
  return item.error === null && (item.reason === 'enough' || item.reason === 'within_tolerance');
}

export class Alarms {
  #outage: { since: string; cycles: number; remindedMs: number } | undefined;
  /** Addresses in a run of failures, with the cycles it has lasted. */
  readonly #failing = new Map<string, number>();

  constructor(private readonly reminderMs = REMINDER_MS) {}

  cycleEnded(report: CycleReport, nowMs: number): AlarmEvent[] {
    const at = new Date(nowMs).toISOString();
    if (report.error !== undefined) {
      const outage = (this.#outage ??= { since: at, cycles: 0, remindedMs: Number.NEGATIVE_INFINITY });
      outage.cycles += 1;
      const first = outage.cycles === 1;
      if (!first && nowMs - outage.remindedMs < this.reminderMs) return [];
      outage.remindedMs = nowMs;
      const { cycle, error } = report;
      return [
        {
          event: 'cycle_failed',
          at,
          cycle,
          error,
          failed_cycles: outage.cycles,
          since: outage.since,
          reminder: !first,
        },
      ];
    }
    const events: AlarmEvent[] = [];
    if (this.#outage !== undefined) {
      const { since, cycles } = this.#outage;
      events.push({ event: 'recovered', at, cycle: report.cycle, failed_cycles: cycles, since });
      this.#outage = undefined;
    }
    for (const item of report.items) {
      const { address } = item;
      const failing = this.#failing.get(address);
      // An address --max-spend holds back is not failing: spend_limit_reached says that, once.
      if (item.error !== null && item.reason !== 'spend_limit') {
        if (failing === undefined)
          events.push({ event: 'address_failed', at, address, reason: item.reason, error: item.error });
        this.#failing.set(address, (failing ?? 0) + 1);
      } else if (failing !== undefined && stands(item)) {
        events.push({ event: 'address_recovered', at, address, failed_cycles: failing });
        this.#failing.delete(address);
      }
    }
    return events;
  }
}
