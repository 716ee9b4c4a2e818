/**
 * What `energy ensure` does once its options are parsed: one run, printed and ended with its exit code;
 * or, with `--every`, a service of runs (serve.ts) until a signal stops it between cycles. Printing is the
 * caller's.
 */
import type { EnsureDeps, EnsureItem, EnsureOptions } from '../ensure/ensure-types.js';
import { ensureFailure } from '../ensure/outcome.js';
import { runEnsure } from '../ensure/run-ensure.js';
import type { WatchOptions } from './observer.js';
import type { CycleReport } from './service-loop.js';

export interface RunOrServeOptions {
  deps: EnsureDeps;
  run: EnsureOptions;
  /** `--every`: milliseconds between cycles; undefined for one run. */
  everyMs: number | undefined;
  /** What watches the service (--metrics, --min-balance, --on-event); only with --every. */
  watch?: WatchOptions;
  print: (items: EnsureItem[]) => Promise<void>;
  printCycle: (cycle: CycleReport) => Promise<void>;
}

export async function runOrServe(options: RunOrServeOptions): Promise<void> {
  const { deps, run, everyMs } = options;
  if (everyMs === undefined) {
    const items = await runEnsure(deps, run);
    await options.print(items);
    const failure = ensureFailure(items);
    if (failure !== undefined) throw failure;
    return;
  }
  const { serve } = await import('./serve.js');
  await serve({ deps, run, everyMs, watch: options.watch ?? {}, printCycle: options.printCycle });
}
