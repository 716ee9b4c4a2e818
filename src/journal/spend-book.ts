/**
 * What a spend ledger's events add up to (pure): one entry per client_request_id, and what each counts.
 * The rules, in one place for both stores:
 *   - an entry with an order counts the order's price from the time its answer first came, whatever holds
 *     it had (the order is what was spent; sending its id again places nothing);
 *   - an entry without one counts the largest of its open holds, from the latest (a request that may still
 *     place an order: killed in flight, or on its way now);
 *   - a refunded order, and an entry whose holds were all dropped, count nothing;
 *   - an entry counts under a ceiling while its time is inside the window (at or after `sinceMs`).
 */
import { compareAmounts, subtractAmounts, sumAmounts } from '../domain/money.js';
import type { FinalState, SpendEvent } from './spend-events.js';

export interface SpendEntry {
  id: string;
  address: string;
  /** Who held it first (key id, base URL), when a hold was seen: whose journal and orders it is. */
  key_id: string | undefined;
  origin: string | undefined;
  /** Open holds, by holder. */
  holds: Map<string, { total_trx: string; at_ms: number }>;
  order: { order_id: string; total_trx: string; at_ms: number } | undefined;
  final: { state: FinalState; note: string | null } | undefined;
}

const NOTHING = '0.000000';

function largest(amounts: Iterable<string>): string | undefined {
  let top: string | undefined;
  for (const amount of amounts) if (top === undefined || compareAmounts(amount, top) > 0) top = amount;
  return top;
}

/** What the entry counts against a ceiling (undefined: nothing). */
export function entryAmount(entry: SpendEntry): string | undefined {
  if (entry.final?.state === 'refunded') return undefined;
  if (entry.order !== undefined) return entry.order.total_trx;
  return largest([...entry.holds.values()].map((hold) => hold.total_trx));
}

/** When the entry counts from, on the server's clock (undefined: it counts nothing, ever). */
export function entryTime(entry: SpendEntry): number | undefined {
  if (entry.order !== undefined) return entry.order.at_ms;
  let latest: number | undefined;
  for (const hold of entry.holds.values()) latest = Math.max(latest ?? hold.at_ms, hold.at_ms);
  return latest;
}

export class SpendBook {
  readonly entries = new Map<string, SpendEntry>();
  /** The longest window any ceiling used on the ledger: nothing younger is pruned. */
  longestWindowMs = 0;
  /** The newest time of any event read (-Infinity: none): a prune never reaches past it less the longest window. */
  newestMs = -Infinity;

  apply(event: SpendEvent): void {
    if (event.kind === 'window') {
      this.longestWindowMs = Math.max(this.longestWindowMs, event.window_ms);
      return;
    }
    this.newestMs = Math.max(this.newestMs, event.at_ms);
    const entry = this.#entry(event.id);
    switch (event.kind) {
      case 'hold': {
        entry.address ||= event.address;
        entry.key_id ??= event.key_id;
        entry.origin ??= event.origin;
        const earlier = entry.holds.get(event.holder);
        const at = Math.max(earlier?.at_ms ?? event.at_ms, event.at_ms);
        entry.holds.set(event.holder, {
          total_trx: largest([event.total_trx, earlier?.total_trx ?? NOTHING])!,
          at_ms: at,
        });
        break;
      }
      case 'drop':
        entry.holds.delete(event.holder);
        break;
      case 'order':
        entry.address ||= event.address;
        entry.order ??= { order_id: event.order_id, total_trx: event.total_trx, at_ms: event.at_ms };
        break;
      case 'final':
        // The first outcome stands: a later reading cannot turn a refund back into a spend, nor the reverse.
        entry.final ??= { state: event.state, note: event.note };
        break;
    }
  }

  /** The entries counted in a window starting at `sinceMs`, oldest first. */
  counted(sinceMs: number): SpendEntry[] {
    const counted: { entry: SpendEntry; at: number }[] = [];
    for (const entry of this.entries.values()) {
      const at = entryTime(entry);
      if (at !== undefined && at >= sinceMs && entryAmount(entry) !== undefined) counted.push({ entry, at });
    }
    return counted.sort((a, b) => a.at - b.at).map(({ entry }) => entry);
  }

  /** What counts in a window starting at `sinceMs`. */
  spent(sinceMs: number): string {
    return sumAmounts(this.counted(sinceMs).map((entry) => entryAmount(entry)!));
  }

  /**
   * How much more the ledger counts in that window once `total` is held on `id` now: nothing when the
   * server has an order for the id already (sending it places none), else its largest hold less what the
   * entry counts now.
   */
  costOfHold(id: string, total: string, sinceMs: number): string {
    const entry = this.entries.get(id);
    if (entry === undefined) return total;
    if (entry.order !== undefined) return NOTHING;
    const now = largest([total, ...[...entry.holds.values()].map((hold) => hold.total_trx)])!;
    const at = entryTime(entry);
    const before = at !== undefined && at >= sinceMs ? (entryAmount(entry) ?? NOTHING) : NOTHING;
    return subtractAmounts(now, before);
  }

  /** Ids whose entry counts nothing any more, or counts from before `beforeMs`: no window can reach them. */
  prunable(beforeMs: number): string[] {
    const ids: string[] = [];
    for (const entry of this.entries.values()) {
      const at = entryTime(entry);
      if (at === undefined || at < beforeMs) ids.push(entry.id);
    }
    return ids;
  }

  forget(ids: Iterable<string>): void {
    for (const id of ids) this.entries.delete(id);
  }

  /** The base URLs its key's holds came from (one key under two spellings of the URL is one account). */
  originsOf(keyId: string): Set<string> {
    const origins = new Set<string>();
    for (const entry of this.entries.values())
      if (entry.key_id === keyId && entry.origin !== undefined) origins.add(entry.origin);
    return origins;
  }

  #entry(id: string): SpendEntry {
    let entry = this.entries.get(id);
    if (entry === undefined) {
      entry = {
        id,
        address: '',
        key_id: undefined,
        origin: undefined,
        holds: new Map(),
        order: undefined,
        final: undefined,
      };
      this.entries.set(id, entry);
    }
    return entry;
  }
}
