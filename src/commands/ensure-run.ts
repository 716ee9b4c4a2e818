/**
 * What `energy ensure` runs once its command line is parsed (ensure.ts): one run or the service, through
 * ensure/ and service/, its items printed as a table or JSON.
 */
import type { EnsureOptions } from '../ensure/ensure-types.js';
import { ensureLockPath } from '../journal/state-dir.js';
import { cycleLine, ensureTable } from '../output/ensure-views.js';
import { confirmOn } from '../output/prompt.js';
import type { WatchOptions } from '../service/observer.js';
import type { TronNode } from '../tron/tron-node.js';
import type { CommandServices } from './command-services.js';

export interface EnsureCommandOptions extends CommandServices {
  run: EnsureOptions;
  /** --every: milliseconds between cycles; undefined for one run. */
  everyMs: number | undefined;
  /** --metrics, --min-balance, --on-event: only with --every. */
  watch: WatchOptions;
  tronNode: () => Promise<TronNode>;
}

export async function ensureRun(opts: EnsureCommandOptions): Promise<void> {
  const lockPath = await ensureLockPath(opts.terminal.env);
  const node = await opts.tronNode();
  const [{ runOrServe }, { withEnsureLock }] = await Promise.all([
    import('../service/run-or-serve.js'),
    import('../ensure/ensure-lock.js'),
  ]);
  const { printer } = opts;
  const note = (line: string) => printer.note(line);
  await runOrServe({
    deps: {
      node,
      api: async () => ({
        client: await opts.client(),
        journal: await opts.journal(),
        recoverCommand: (id) =>
          id === undefined ? opts.invocation('order', 'recover') : opts.invocation('order', 'recover', id),
        waitCommand: (id) => opts.invocation('order', 'wait', id),
      }),
      exclusive: async (work) => withEnsureLock(await lockPath(), work, note),
      confirm: confirmOn(opts.terminal),
      exit: opts.terminal.exit,
      note,
      progress: printer.jsonMode && !opts.verbose ? undefined : note,
      trace: opts.verbose ? (line) => printer.verbose(line) : undefined,
    },
    run: opts.run,
    everyMs: opts.everyMs,
    watch: opts.watch,
    print: (items) => (printer.jsonMode ? printer.json({ items }) : printer.table(ensureTable(items))),
    printCycle: async (cycle) => {
      if (printer.jsonMode) return printer.write(`${JSON.stringify(cycle)}\n`);
      await printer.write(cycleLine(cycle));
      if (!cycle.error) await printer.table(ensureTable(cycle.items));
    },
  });
}
