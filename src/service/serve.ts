/**
 * `ensure --every`: the service. Its observer starts first (a --metrics port in use is exit 2 before any
 * cycle); then cycles run until SIGTERM or SIGINT, each one `ensure` run, plus one balance read when the
 * metrics or --min-balance want it; each cycle's report is observed, then printed. A stop asked for before
 * a cycle starts ordering (a signal while it reads, or before the switch was even installed) ends the
 * service before that cycle orders anything: `systemctl stop` just after a start buys nothing.
 */
import type { EnsureDeps, EnsureOptions } from '../ensure/ensure-types.js';
import { ServiceObserver, type WatchOptions } from './observer.js';
import { serviceCycle } from './service-cycle.js';
import { runService, type CycleReport } from './service-loop.js';
import { gateOrdering } from './ordering-gate.js';
import { signalAtSwitch } from './signal-seam.js';
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
  const { env, interrupt } = deps;
  await signalAtSwitch(env, 'before', () => interrupt?.aborted === true);
  const stop = stopOnSignals({
    note: deps.note,
    exit: deps.exit ?? ((code) => process.exit(code)),
    earlier: interrupt,
  });
  await signalAtSwitch(env, 'after', () => stop.requested);
  const serviceDeps: EnsureDeps = {
    ...deps,
    // Orders seen final stay known between cycles, so a service follows each of its old orders once.
    knownFinal: new Set(),
    // What the node showed before each order placed: its delivery counts once the limit shows it (landed.ts).
    limitsBefore: new Map(),
    // Ordering starts with a claim's decision: not once a stop was asked for.
    claim: gateOrdering(deps.claim, () => stop.requested),
  };
  try {
    await runService({
      everyMs,
      cycle: serviceCycle(serviceDeps, run, observer, everyMs),
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
