/**
 * What watches a running service, as its options ask (`--metrics`, `--min-balance`, `--on-event`): each
 * cycle's outcome goes to the metrics, the health rule and the event hook; each balance read to the
 * metrics and the low-balance watch. Without those options nothing is made and nothing is read.
 */
import type { CycleReport } from './service-loop.js';
import { EventHook } from './event-hook.js';
import { checkHookCommand } from './hook-check.js';
import { LowBalanceWatch, cycleEvents } from './events.js';
import { Health } from './health.js';
import type { ListenAddress } from './listen-address.js';
import { ServiceMetrics, cycleSucceeded } from './service-metrics.js';
import { StandardMetrics, processFacts } from './standard-metrics.js';
import { startStatusServer, type StatusServer } from './status-server.js';

export interface WatchOptions {
  /** --metrics: serve /metrics and /healthz here. */
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
        health: () => observer.#health.report(nowMs()),
      });
      const { url } = observer.#server;
      const where = observer.#server.everyInterface
        ? ` (listening on every interface, ${watch.metrics.host}: other machines can reach it unless a firewall stops them)`
        : '';
      note(`energy: metrics at ${url}/metrics, health at ${url}/healthz${where}`);
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
    this.#metrics?.cycleEnded(report.items, failed, now);
    this.#standard?.cycleEnded(cycleSucceeded(report.items, failed), Date.parse(report.at), now);
    this.#health.cycleEnded(cycleSucceeded(report.items, failed), now);
    if (this.#hook !== undefined) {
      for (const event of cycleEvents(report, new Date(now).toISOString())) this.#hook.emit(event);
    }
  }

  /** Drops the events waiting for a hook, lets the hooks running end (each within its bound), stops serving. */
  async close(): Promise<void> {
    await this.#hook?.close();
    await this.#server?.close();
  }
}
