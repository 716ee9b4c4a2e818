/**
 * The series every exporter has, beside the service's own (service-metrics.ts): the build, the process's
 * start time and resident memory (restarts and leaks can be graphed), how long the last cycle took (as
 * blackbox's probe_duration_seconds) and how many cycles in a row have failed (what /readyz judges).
 * Names as the Prometheus client libraries and their conventions spell them.
 */
import type { Metrics } from './metrics.js';

const BUILD_INFO = 'energy_build_info';
const START_TIME = 'process_start_time_seconds';
const RESIDENT_MEMORY = 'process_resident_memory_bytes';
const CYCLE_DURATION = 'energy_ensure_last_cycle_duration_seconds';
const FAILURES_IN_A_ROW = 'energy_ensure_failures_in_a_row';

export interface ProcessFacts {
  /** This tool's version, for energy_build_info{version}. */
  version: string;
  /** When the process started, Unix ms. */
  startedAtMs: number;
  /** The process's resident set size now, in bytes. */
  residentBytes: () => number;
}

/** The process's own facts: its start (performance.timeOrigin) and its RSS, read at each scrape. */
export function processFacts(version: string): ProcessFacts {
  return { version, startedAtMs: performance.timeOrigin, residentBytes: () => process.memoryUsage.rss() };
}

export class StandardMetrics {
  #failuresInARow = 0;

  constructor(
    private readonly registry: Metrics,
    private readonly facts: ProcessFacts,
  ) {
    registry.gauge(BUILD_INFO, 'Always 1; its version label is the running energy-cli version.');
    registry.gauge(START_TIME, 'Start time of the process since unix epoch in seconds.');
    registry.gauge(RESIDENT_MEMORY, 'Resident memory size in bytes.');
    registry.gauge(
      CYCLE_DURATION,
      'How long the last cycle of ensure --every took, from its start to its end, in seconds.',
    );
    registry.gauge(
      FAILURES_IN_A_ROW,
      'Cycles in a row that failed, up to the last one (0 after one that did not); /readyz is 503 from 3.',
    );
    registry.set(BUILD_INFO, { version: facts.version }, '1');
    registry.set(START_TIME, {}, (Math.floor(facts.startedAtMs) / 1000).toFixed(3));
    registry.set(FAILURES_IN_A_ROW, {}, '0');
  }

  /** `ok`: the cycle did not fail (ok, or held at --max-spend). */
  cycleEnded(ok: boolean, startedAtMs: number, endedAtMs: number): void {
    this.#failuresInARow = ok ? 0 : this.#failuresInARow + 1;
    this.registry.set(FAILURES_IN_A_ROW, {}, String(this.#failuresInARow));
    this.registry.set(CYCLE_DURATION, {}, (Math.max(0, endedAtMs - startedAtMs) / 1000).toFixed(3));
  }

  /** Before each scrape: the values read from the process at that moment. */
  refresh(): void {
    this.registry.set(RESIDENT_MEMORY, {}, String(this.facts.residentBytes()));
  }
}
