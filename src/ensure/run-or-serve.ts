/**
 * What `energy ensure` does once its options are parsed: one run, printed and ended with its exit code;
 * or, with `--every`, a service of runs until a signal stops it between cycles. Printing is the caller's.
 */
import type { EnsureDeps, EnsureItem, EnsureOptions } from './ensure-types.js';
import { ensureFailure } from './outcome.js';
import { runEnsure } from './run-ensure.js';
import type { CycleReport } from './service-loop.js';

export interface RunOrServeOptions {
  deps: EnsureDeps;
  run: EnsureOptions;
  /** `--every`: milliseconds between cycles; undefined for one run. */
  everyMs: number | undefined;
  print: (items: EnsureItem[]) => Promise<void>;
  printCycle: (cycle: CycleReport) => Promise<void>;
}

export async function runOrServe({ deps, run, everyMs, print, printCycle }: RunOrServeOptions): Promise<void> {
  if (everyMs === undefined) {
    const items = await runEnsure(deps, run);
    await print(items);
    const failure = ensureFailure(items);
    if (failure !== undefined) throw failure;
    return;
  }
  const [{ runService }, { stopOnSignals }] = await Promise.all([
    import('./service-loop.js'),
    import('./signal-stop.js'),
  ]);
  // Orders seen final stay known between cycles, so a service follows each of its old orders once.
  const serviceDeps: EnsureDeps = { ...deps, knownFinal: new Set() };
  const stop = stopOnSignals({ note: deps.note, exit: deps.terminal.exit ?? ((code) => process.exit(code)) });
  try {
    await runService({
      everyMs,
      cycle: () => runEnsure(serviceDeps, run),
      report: printCycle,
      note: deps.note,
      stop,
    });
  } finally {
    stop.restore();
  }
}
