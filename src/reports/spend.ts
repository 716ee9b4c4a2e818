/**
 * `energy spend`: what the account spent, summed exactly. Reads the order list as the server lists it and
 * stops paging after a whole page older than `since`, while the list is newest first;
 * the spec gives it no order, so once a `created_at` rises down the list the whole list is read (and
 * said on stderr). Each order id is summed once, however often pages repeat it (issue 32). Sums go through src/domain/money.ts (decimal, six digits), never a float: a thousand orders of
 * 0.100000 TRX make 100.000000, not 99.99999999999986.
 */
import { ListReading } from '../client/list-reading.js';
import type { Order, OrderList } from '../client/types.js';
import { timestampMs } from '../domain/api-time.js';
import { burnTrx } from '../domain/burn.js';
import { addAmounts, subtractAmounts } from '../domain/money.js';
import { IdSet } from './id-set.js';

export type SpendGrouping = 'day' | 'address' | 'status';

export interface SpendQuery {
  /** Inclusive lower bound, in ms since the epoch. */
  sinceMs?: number | undefined;
  /** Exclusive upper bound, in ms since the epoch. */
  untilMs?: number | undefined;
  by?: SpendGrouping | undefined;
}

/** Rent or burn, where a TRON node says the price: burning the same energy, and what renting saved. */
export interface BurnFields {
  /** What burning the orders' energy would have cost at the chain's price now; null if it could not be read. */
  burn_trx?: string | null;
  /** burn_trx − total_trx (negative when renting cost more); null with burn_trx. */
  saved_trx?: string | null;
}

export interface SpendGroup extends BurnFields {
  key: string;
  orders: number;
  /** The orders' energy, summed. */
  energy: number;
  total_trx: string;
}

export interface SpendReport extends BurnFields {
  since: string | null;
  until: string | null;
  total_trx: string;
  orders: number;
  energy: number;
  groups: SpendGroup[];
}

function burnFields(energy: number, total: string, sunPerEnergy: number | null): BurnFields {
  if (sunPerEnergy === null) return { burn_trx: null, saved_trx: null };
  const burn = burnTrx(energy, sunPerEnergy);
  return { burn_trx: burn, saved_trx: subtractAmounts(burn, total) };
}

/**
 * The report with burn_trx and saved_trx, on it and on each group, at `sunPerEnergy` sun a unit of energy
 * (null: the price could not be read, so both are null).
 */
export function withBurn(report: SpendReport, sunPerEnergy: number | null): SpendReport {
  const { groups, ...sums } = report;
  return {
    ...sums,
    ...burnFields(report.energy, report.total_trx, sunPerEnergy),
    groups: groups.map((group) => ({ ...group, ...burnFields(group.energy, group.total_trx, sunPerEnergy) })),
  };
}

/** The key of an order's group: its UTC date, its address or its status. */
function groupKey(order: Order, by: SpendGrouping): string {
  if (by === 'day') return new Date(timestampMs(order.created_at)).toISOString().slice(0, 10);
  return by === 'address' ? order.address : order.status;
}

export async function spendReport(
  pages: AsyncIterable<OrderList>,
  query: SpendQuery,
  note: (line: string) => void = () => {},
): Promise<SpendReport> {
  const sum = new Sum(query.by);
  // Ids in 16 bytes each: 100,000 orders read in about the memory of 20,000 (npm run bench).
  const reading = new ListReading(new IdSet());
  const report = (): SpendReport => {
    for (const line of reading.notices('the total may be short of what was spent')) note(line);
    return sum.report(query);
  };
  for await (const page of pages) {
    for (const order of page.items) {
      if (!reading.take(order)) continue;
      const createdMs = timestampMs(order.created_at);
      if (query.sinceMs !== undefined && createdMs < query.sinceMs) continue;
      // A failed order returns what it held: it was never spent.
      if ((query.untilMs === undefined || createdMs < query.untilMs) && order.failure === null) sum.add(order);
    }
    reading.endPage(page.items.length);
    // Returning ends the page generator: no page beyond a whole page before `since`, in a newest-first list.
    if (query.sinceMs !== undefined && reading.pageBefore(query.sinceMs)) return report();
  }
  return report();
}

class Sum {
  readonly #groups = new Map<string, SpendGroup>();
  #total = '0.000000';
  #orders = 0;
  #energy = 0;

  constructor(readonly by: SpendGrouping | undefined) {}

  add(order: Order): void {
    this.#total = addAmounts(this.#total, order.total_trx);
    this.#orders += 1;
    this.#energy += order.energy;
    if (this.by === undefined) return;
    const key = groupKey(order, this.by);
    const group = this.#groups.get(key) ?? { key, orders: 0, energy: 0, total_trx: '0.000000' };
    group.orders += 1;
    group.energy += order.energy;
    group.total_trx = addAmounts(group.total_trx, order.total_trx);
    this.#groups.set(key, group);
  }

  report(query: SpendQuery): SpendReport {
    return {
      since: query.sinceMs === undefined ? null : new Date(query.sinceMs).toISOString(),
      until: query.untilMs === undefined ? null : new Date(query.untilMs).toISOString(),
      total_trx: this.#total,
      orders: this.#orders,
      energy: this.#energy,
      groups: [...this.#groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    };
  }
}
