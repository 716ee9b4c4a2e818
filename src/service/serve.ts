/**
 * `ensure --every`: the service. Its observer starts first (a --metrics port in use is exit 2 before any
 * cycle); then cycles run until SIGTERM or SIGINT, each one `ensure` run, plus one balance read when the
 * metrics or --min-balance want it; each cycle's report is observed, then printed.
 */
import type { EnsureDeps, EnsureOptions } from '../ensure/ensure-types.js';
import { ServiceObserver, type WatchOptions } from './observer.js';
import { serviceCycle } from './service-cycle.js';
import { runService, type CycleReport } from './service-loop.js';
import { stopOnSignals } from './signal-stop.js';

export interface ServeOptions {
  deps: EnsureDeps;
  run: EnsureOptions;
  everyMs: number;
  watch: WatchOptions;
  printCycle: (cycle: CycleReport) => Promise<void>;
}

export async function serve({ deps, run, everyMs, watch, printCycle }: ServeOptions): Promise<void> {
  const observer = await ServiceObserver.start(watch, everyMs, deps.note, deps.nowMs);
  // Orders seen final stay known between cycles, so a service follows each of its old orders once.
  const serviceDeps: EnsureDeps = { ...deps, knownFinal: new Set() };
  const stop = stopOnSignals({ note: deps.note, exit: deps.terminal.exit ?? ((code) => process.exit(code)) });
  try {
    await runService({
      everyMs,
      cycle: serviceCycle(serviceDeps, run, observer),
      report: async (report) => {
        observer.cycleEnded(report);
        await printCycle(report);
      },
      note: deps.note,
      stop,
    });
  } finally {
    stop.restore();
    await observer.close();
  }
}
