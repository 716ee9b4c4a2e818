/**
 * What watches a running service, as its options ask (`--metrics`, `--min-balance`, `--on-event`): each
 * cycle's outcome goes to the metrics, the health rule and the event hook; each balance read to the
 * metrics and the low-balance watch. Without those options nothing is made and nothing is read.
 */
import { printable } from '../domain/printable.js';
import { Alarms, type AlarmEvent } from './alarms.js';
import type { Ceiling, EnsureItem } from '../ensure/ensure-types.js';
import { compareAmounts } from '../domain/money.js';
import type { Settled } from './placed-orders.js';
import type { CycleReport } from './service-loop.js';
import { EventHook } from './event-hook.js';
import { checkHookCommand } from './hook-check.js';
import { LowBalanceWatch, cycleEvents } from './events.js';
import { Health } from './health.js';
import type { ListenAddress } from './listen-address.js';
import { ServiceMetrics, cycleResult } from './service-metrics.js';
import { StandardMetrics, processFacts } from './standard-metrics.js';
import { startStatusServer, type StatusServer } from './status-server.js';

export interface WatchOptions {
  /** --metrics: serve /metrics and the probes (/livez, /readyz, /healthz) here. */
  metrics?: ListenAddress | undefined;
  /** --min-balance, in TRX: a low_balance event (and a note) when a cycle finds the balance below it. */
  minBalance?: string | undefined;
  /** --on-event: the command run with each event on its stdin. */
  onEvent?: string | undefined;
  /** This tool's version, for energy_build_info. */
  version?: string | undefined;
}

export class ServiceObserver {
  readonly #metrics: ServiceMetrics | undefined;
  readonly #standard: StandardMetrics | undefined;
  readonly #health: Health;
  readonly #hook: EventHook | undefined;
  readonly #lowBalance: LowBalanceWatch | undefined;
  #server: StatusServer | undefined;
  #spendReached = false;
  /** The cheapest order the last cycle that quoted any was quoted: what one more order needs under --max-spend. */
  #orderPrice: string | undefined;
  readonly #alarms = new Alarms();

  private constructor(
    readonly watch: WatchOptions,
    everyMs: number,
    private readonly note: (line: string) => void,
    private readonly nowMs: () => number,
  ) {
    this.#metrics = watch.metrics === undefined ? undefined : new ServiceMetrics(nowMs());
    this.#standard =
      this.#metrics === undefined
        ? undefined
        : new StandardMetrics(this.#metrics.registry, processFacts(watch.version ?? 'unknown'));
    this.#health = new Health(everyMs, nowMs());
    this.#hook = watch.onEvent === undefined ? undefined : new EventHook({ command: watch.onEvent, note });
    this.#lowBalance = watch.minBalance === undefined ? undefined : new LowBalanceWatch(watch.minBalance);
  }

  /**
   * Starts what the options ask for; an --on-event program that is not there or cannot be run, or a
   * --metrics port that cannot be had, fails here, before any cycle (exit 2).
   */
  static async start(
    watch: WatchOptions,
    everyMs: number,
    note: (line: string) => void,
    nowMs: () => number = Date.now,
  ): Promise<ServiceObserver> {
    if (watch.onEvent !== undefined) checkHookCommand(watch.onEvent, process.env);
    const observer = new ServiceObserver(watch, everyMs, note, nowMs);
    if (watch.metrics !== undefined) {
      const metrics = observer.#metrics!;
      observer.#server = await startStatusServer(watch.metrics, {
        metrics: () => {
          observer.#standard?.refresh();
          return metrics.render();
        },
        live: () => observer.#health.live(nowMs()),
        ready: () => observer.#health.report(nowMs()),
      });
      const { url } = observer.#server;
      const where = observer.#server.everyInterface
        ? ` (listening on every interface, ${observer.#server.bound}: other machines can reach it unless a firewall stops them)`
        : '';
      note(`energy: metrics at ${url}/metrics, probes at ${url}/livez and ${url}/readyz${where}`);
    }
    return observer;
  }

  /** True when each cycle should read the balance (for the gauge, or the floor). */
  get wantsBalance(): boolean {
    return this.#metrics !== undefined || this.#lowBalance !== undefined;
  }

  balanceRead(available: string): void {
    this.#metrics?.balance(available, this.watch.minBalance);
    const low = this.#lowBalance?.check(available, new Date(this.nowMs()).toISOString());
    if (low === undefined) return;
    this.note(`energy: the available balance ${available} TRX is below --min-balance ${this.watch.minBalance} TRX`);
    this.#hook?.emit(low);
  }

  cycleEnded(report: CycleReport): void {
    const now = this.nowMs();
    const failed = report.error !== undefined;
    const result = cycleResult(report.items, failed);
    this.#metrics?.cycleEnded(report.items, failed, now);
    this.#standard?.cycleEnded(result !== 'failed', Date.parse(report.at), now);
    this.#health.cycleEnded(result, now);
    const alarms = this.#alarms.cycleEnded(report, now);
    for (const alarm of alarms) if (alarm.event !== 'cycle_failed') this.note(alarmLine(alarm));
    if (this.#hook !== undefined) {
      for (const event of [...cycleEvents(report, new Date(now).toISOString()), ...alarms]) this.#hook.emit(event);
    }
  }

  /** The service's orders found final at a cycle's start: spent or refunded; a run of failed deliveries raised once. */
  ordersSettled(settled: readonly Settled[]): void {
    const at = new Date(this.nowMs()).toISOString();
    for (const { order, kept, streak, nextOrderCycle } of settled) {
      this.#metrics?.orderSettled(kept, order.total_trx);
      if (kept || streak !== 1) continue;
      const failure = order.failure === null ? null : { code: order.failure.code, message: order.failure.message };
      this.note(
        `energy: order ${printable(order.id, 80)} to ${order.address} failed at delivery (${failure === null ? 'no delivery' : printable(failure.code, 60)}): its price went back to the balance; no order to ${order.address} before cycle ${nextOrderCycle}, then longer waits while deliveries fail`,
      );
      this.#hook?.emit({
        event: 'delivery_failed',
        at,
        address: order.address,
        order_id: order.id,
        failure,
        next_order_cycle: nextOrderCycle!,
      });
    }
  }

  /**
   * After a cycle, with --max-spend: the gauges of what is left and of whether one more order fits (what is
   * left against the cheapest order last quoted), /readyz 503 while it does not; spend_limit_reached (and a note) once
   * each time an order is refused by the ceiling, raised again only after an order was placed under it since.
   */
  spendChecked(left: string, items: readonly EnsureItem[], limit: Ceiling): void {
    const quoted = items.flatMap((item) => (item.total_trx === null ? [] : [item.total_trx]));
    if (quoted.length > 0) this.#orderPrice = quoted.reduce((a, b) => (compareAmounts(a, b) <= 0 ? a : b));
    const price = this.#orderPrice;
    const reached = price !== undefined && compareAmounts(left, price) < 0;
    this.#metrics?.spendLeft(left, reached);
    this.#health.spendLimit(
      reached ? `--max-spend ${limit.text}: ${left} TRX left, less than one order (${price} TRX)` : undefined,
    );
    const refused = items.find((item) => item.reason === 'spend_limit');
    if (items.some((item) => item.reason === 'bought')) this.#spendReached = false;
    if (refused === undefined || this.#spendReached) return;
    this.#spendReached = true;
    const total = refused.total_trx ?? '?';
    this.note(
      compareAmounts(total, limit.trx) > 0
        ? `energy: an order of ${total} TRX is more than --max-spend ${limit.text} allows in any window (${limit.trx} TRX): it is never ordered under it`
        : `energy: --max-spend ${limit.text} has ${left} TRX left, less than an order (${total} TRX): nothing more is ordered until orders leave the window`,
    );
    this.#hook?.emit({
      event: 'spend_limit_reached',
      at: new Date(this.nowMs()).toISOString(),
      max_spend: limit.text,
      left_trx: left,
    });
  }

  /** Drops the events waiting for a hook, lets the hooks running end (each within its bound), stops serving. */
  async close(): Promise<void> {
    await this.#hook?.close();
    await this.#server?.close();
  }
}

/** The stderr note of an alarm (a failed cycle has its own line already, from the loop). */
function alarmLine(alarm: AlarmEvent): string {
  switch (alarm.event) {
    case 'recovered':
      return `energy: cycle ${alarm.cycle} ran to its end again, after ${alarm.failed_cycles} failed cycle(s) since ${alarm.since}`;
    case 'address_failed':
      return `energy: ${alarm.address} is failing (${alarm.reason}): ${alarm.error.message}`;
    case 'address_recovered':
      return `energy: ${alarm.address} stands again, after ${alarm.failed_cycles} failed cycle(s)`;
    default:
      return '';
  }
}
