/**
 * What `energy ensure` runs once its command line is parsed (ensure.ts): one run or the service, through
 * ensure/ and service/, its items printed as a table or JSON.
 */
import type { EnsureOptions } from '../ensure/ensure-types.js';
import type { SpendCeiling } from '../ensure/spend-ceiling.js';
import { cycleLine, ensureTable } from '../output/ensure-views.js';
import { confirmOn } from '../output/prompt.js';
import type { WatchOptions } from '../service/observer.js';
import type { TronNode } from '../tron/tron-node.js';
import type { CommandServices } from './command-services.js';

export interface EnsureCommandOptions extends CommandServices {
  run: EnsureOptions;
  /** --every: milliseconds between cycles; undefined for one run. */
  everyMs: number | undefined;
  /** --file: more addresses from this file (`-`: standard input), read again each cycle of a service. */
  addressFile?: string | undefined;
  /** --metrics, --min-balance, --on-event: only with --every. */
  watch: WatchOptions;
  tronNode: () => Promise<TronNode>;
}

export async function ensureRun(opts: EnsureCommandOptions): Promise<void> {
  const { printer } = opts;
  const note = (line: string) => printer.note(line);
  // The file's lines checked before anything else is opened (a bad line is exit 2, nothing read).
  const run = opts.addressFile === undefined ? opts.run : await withAddressFile(opts, opts.addressFile, note);
  // The store is checked first (a state folder others can read, a database that cannot be reached).
  const claims = await (await opts.state()).claims({ note, everyMs: opts.everyMs });
  const node = await opts.tronNode();
  const { runOrServe } = await import('../service/run-or-serve.js');
  // The table's columns from the options alone: the same every cycle.
  const shape = { wait: run.waitSeconds !== undefined };
  const spendCeiling = await ceilingFor(opts);
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
      claim: (addresses, slice) => claims(async () => (await opts.journal()).scope, addresses, slice),
      spendCeiling,
      confirm: confirmOn(opts.terminal),
      exit: opts.terminal.exit,
      env: opts.terminal.env,
      interrupt: opts.terminal.interrupt,
      note,
      progress: printer.jsonMode && !opts.verbose ? undefined : note,
      trace: opts.verbose ? (line) => printer.verbose(line) : undefined,
    },
    run,
    everyMs: opts.everyMs,
    watch: opts.watch,
    print: (items) => (printer.jsonMode ? printer.json({ items }) : printer.table(ensureTable(items, shape))),
    printCycle: async (cycle) => {
      if (printer.jsonMode) return printer.write(`${JSON.stringify(cycle)}\n`);
      await printer.write(cycleLine(cycle));
      if (!cycle.error) await printer.table(ensureTable(cycle.items, shape));
    },
  });
}

/**
 * The run's addresses with those of --file after the command line's, each once; a service's list read again at
 * each cycle (service-cycle.ts) from a file, not from standard input (read once).
 */
async function withAddressFile(
  opts: EnsureCommandOptions,
  path: string,
  note: (line: string) => void,
): Promise<EnsureCommandOptions['run']> {
  const { readAddressFile } = await import('../ensure/address-file.js');
  const read = async () => [...new Set([...opts.run.addresses, ...(await readAddressFile(path, opts.terminal.stdin))])];
  const addresses = await read();
  if (opts.everyMs === undefined || path === '-') return { ...opts.run, addresses };
  return {
    ...opts.run,
    addresses,
    rereadAddresses: async (last) => {
      try {
        return await read();
      } catch (error) {
        // A file caught half-written, or a bad line: the service keeps supplying the list it had.
        note(`energy: ${(error as Error).message}; keeping the ${last.length} address(es) read before`);
        return last;
      }
    },
  };
}

/**
 * --max-spend's ceiling over its ledger in the state store (shared in PostgreSQL): the API key's own, or the
 * --budget's; opened at the first order, so that a run with enough energy never touches it.
 */
async function ceilingFor(opts: EnsureCommandOptions): Promise<SpendCeiling | undefined> {
  const limit = opts.run.maxSpend;
  if (limit === undefined) return undefined;
  const [{ SpendCeiling }, { accountLedger, budgetLedger }] = await Promise.all([
    import('../ensure/spend-ceiling.js'),
    import('../journal/spend-ledger.js'),
  ]);
  return new SpendCeiling({
    limit,
    open: async () => {
      const journal = await opts.journal();
      const { keyId } = journal.scope;
      const name = limit.budget === undefined ? accountLedger(keyId) : budgetLedger(limit.budget);
      return { ledger: await (await opts.state()).spendLedger(name, journal.scope), journal };
    },
    note: (line) => opts.printer.note(line),
    serverClock: async () =>
      (await import('../ordering/server-clock.js')).readServerClock(await opts.client(), Date.now),
  });
}
