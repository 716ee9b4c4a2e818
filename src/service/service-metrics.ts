/**
 * What `ensure --every --metrics` exposes, and how each cycle moves it. Names follow Prometheus'
 * conventions: an `energy_` prefix, counters in `_total`, the unit in the name (`_trx`, `_energy`,
 * `_seconds`).
 */
import type { EnsureItem } from '../ensure/ensure-types.js';
import type { CycleResult } from './health.js';
import { Metrics } from './metrics.js';
import { isLocalFailure } from '../ensure/item.js';

const CYCLES = 'energy_ensure_cycles_total';
const ORDERS = 'energy_ensure_orders_total';
const SPENT = 'energy_ensure_spent_trx_total';
const LAST_SUCCESS = 'energy_ensure_last_success_timestamp_seconds';
const AVAILABLE = 'energy_address_available_energy';
const TARGET = 'energy_address_target_energy';
const IN_FLIGHT = 'energy_address_in_flight_energy';
const BALANCE = 'energy_balance_available_trx';
const MIN_BALANCE = 'energy_balance_min_trx';
const SPEND_LEFT = 'energy_ensure_spend_left_trx';
const SPEND_REACHED = 'energy_ensure_spend_limit_reached';
const FAILING = 'energy_address_failing';
/** The series of one address: exported by the host that decided it in its last cycle, and by no other. */
const PER_ADDRESS = [AVAILABLE, TARGET, IN_FLIGHT, FAILING];

/**
 * ok: it ran to its end and every address stands, but those failing for a reason of their own (item.ts
 * isLocalFailure: a wallet without tokens, a contract, deliveries failing) while another address is supplied;
 * spend_limit: the same, and some were held back by --max-spend (the service doing its job, not failing
 * it); else failed: what hit every address (the API, the node, the store, the balance), or nothing supplied.
 */
export function cycleResult(items: readonly EnsureItem[], failed: boolean): CycleResult {
  const failing = items.filter((item) => item.error !== null && item.reason !== 'spend_limit');
  if (failed || failing.some((item) => !isLocalFailure(item))) return 'failed';
  const supplied = items.some((item) => item.error === null && item.reason !== 'claimed_elsewhere');
  if (failing.length > 0 && !supplied) return 'failed';
  return items.some((item) => item.reason === 'spend_limit') ? 'spend_limit' : 'ok';
}

export class ServiceMetrics {
  readonly registry = new Metrics();
  /** The addresses whose series this host exports: those it decided in its last cycle that ran. */
  #decided = new Set<string>();

  /** `startedAtMs`: the last success reads the service's start until a first one (alert rules count from it). */
  constructor(startedAtMs?: number) {
    const m = this.registry;
    m.counter(
      CYCLES,
      'Cycles of ensure --every by result: ok (every address stands), spend_limit (ran to its end; --max-spend held back what it could not buy) or failed.',
    );
    m.counter(
      ORDERS,
      'Orders by result: placed by this service, placed by another host for the same need (elsewhere), failed (could not be placed; not those --max-spend held back), or delivery_failed (placed, then failed at delivery and refunded).',
    );
    m.counter(
      SPENT,
      'TRX kept by the orders this service placed: their total_trx once delivered (a refunded order is not spent).',
    );
    m.gauge(
      LAST_SUCCESS,
      'Unix time at which the last cycle that did its work (ok or spend_limit) ended; until a first one, the service start.',
    );
    m.gauge(AVAILABLE, 'Energy available at the address, as the last cycle read it from the TRON node.');
    m.gauge(TARGET, 'Energy the address is kept at (--energy, or --transfers times one transfer).');
    m.gauge(IN_FLIGHT, 'Energy bought for the address and not on chain yet, as the last cycle counted it.');
    m.gauge(BALANCE, 'Available balance of the API account, in TRX, as the last cycle read it.');
    m.gauge(FAILING, '1 while the address fails (address_failed until address_recovered), as the last cycle found it.');
    m.gauge(MIN_BALANCE, 'The --min-balance below which a low_balance event is raised, in TRX.');
    m.gauge(SPEND_LEFT, 'TRX left under --max-spend now (its rolling window), as the last cycle counted it.');
    m.gauge(
      SPEND_REACHED,
      '1 when --max-spend has no room for one more order (what is left is below the last price quoted), else 0.',
    );
    // Both outcomes from the start: a rate over a series that appears late misses its first increase.
    for (const result of ['ok', 'spend_limit', 'failed']) m.add(CYCLES, { result }, '0');
    for (const result of ['placed', 'elsewhere', 'failed', 'delivery_failed']) m.add(ORDERS, { result }, '0');
    m.add(SPENT, {}, '0.000000');
    if (startedAtMs !== undefined) m.set(LAST_SUCCESS, {}, (startedAtMs / 1000).toFixed(3));
  }

  cycleEnded(items: readonly EnsureItem[], failed: boolean, endedAtMs: number): void {
    const m = this.registry;
    const result = cycleResult(items, failed);
    m.add(CYCLES, { result });
    if (result !== 'failed') m.set(LAST_SUCCESS, {}, (endedAtMs / 1000).toFixed(3));
    this.#keepSeriesOf(items);
    for (const item of items) {
      // Another host decided it: its gauges are that host's to say.
      if (item.available === null) continue;
      const address = { address: item.address };
      m.set(AVAILABLE, address, String(item.available_after ?? item.available));
      m.set(TARGET, address, String(item.target));
      m.set(IN_FLIGHT, address, String(item.in_flight));
      m.set(FAILING, address, item.error !== null && item.reason !== 'spend_limit' ? '1' : '0');
      // Placed, whatever came of it since (with --wait, a delivery that failed: delivery_failed once settled).
      if (item.bought !== null) {
        m.add(ORDERS, { result: 'placed' });
      } else if (item.reason === 'in_flight_elsewhere') {
        m.add(ORDERS, { result: 'elsewhere' });
      } else if (item.error !== null && item.to_buy > 0 && item.reason !== 'spend_limit') {
        // A refusal by --max-spend is no failed order: nothing was tried, and it is said every cycle it lasts.
        m.add(ORDERS, { result: 'failed' });
      }
    }
  }

  /**
   * Drops the series of the addresses this cycle did not decide (another host did, or they left the list), as
   * Prometheus expects of a target that no longer owns a series: a fleet's hosts never export two values for
   * one address, and none a frozen one. A cycle that failed before reading anything (no items) keeps them.
   */
  #keepSeriesOf(items: readonly EnsureItem[]): void {
    if (items.length === 0) return;
    const decided = new Set(items.filter((item) => item.available !== null).map((item) => item.address));
    for (const address of this.#decided) {
      if (decided.has(address)) continue;
      for (const name of PER_ADDRESS) this.registry.drop(name, { address });
    }
    this.#decided = decided;
  }

  /** An order of this service's final: spent when delivered; counted delivery_failed when refunded. */
  orderSettled(kept: boolean, totalTrx: string): void {
    if (kept) this.registry.add(SPENT, {}, totalTrx);
    else this.registry.add(ORDERS, { result: 'delivery_failed' });
  }

  spendLeft(left: string, reached: boolean): void {
    this.registry.set(SPEND_LEFT, {}, left);
    this.registry.set(SPEND_REACHED, {}, reached ? '1' : '0');
  }

  balance(available: string, minBalance: string | undefined): void {
    this.registry.set(BALANCE, {}, available);
    if (minBalance !== undefined) this.registry.set(MIN_BALANCE, {}, minBalance);
  }

  render(): string {
    return this.registry.render();
  }
}
