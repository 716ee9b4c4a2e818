/**
 * What `energy ensure` runs once its command line is parsed (ensure.ts): one run or the service, through
 * ensure/ and service/, its items printed as a table or JSON.
 */
import { CliError, ExitCode } from '../domain/errors.js';
import type { EnsureOptions } from '../ensure/ensure-types.js';
import type { SpendCeiling } from '../ensure/spend-ceiling.js';
import { cycleLine, ensureTable } from '../output/ensure-views.js';
import { confirmOn } from '../output/prompt.js';
import type { WatchOptions } from '../service/observer.js';
import type { KnownAccounts } from '../state/known-accounts.js';
import type { Claims } from '../state/state-store.js';
import type { TronNode } from '../tron/tron-node.js';
import type { FinalOrders } from '../journal/final-orders.js';
import { openedLater } from '../state/shared-list.js';
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
  const run =
    opts.addressFile === undefined
      ? opts.run
      : await (
          await import('../ensure/address-file.js')
        ).withAddressFile(opts.run, opts.addressFile, opts.terminal.stdin, opts.everyMs, note);
  // The store is checked first (a state folder others can read, a database that cannot be reached).
  const claims = await claimsOf(opts, note);
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
      claim: async (addresses, slice) => (await claims())(async () => (await opts.journal()).scope, addresses, slice),
      knownAccounts: knownAccountsOf(opts),
      finalOrders: finalOrdersOf(opts),
      // A service's order list, read by one host of a fleet an interval (the folder shares none).
      sharedList: opts.everyMs === undefined ? undefined : openedLater(opts.state, opts.journal),
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
 * The store's claims. One run fails at once when the store cannot be opened (exit 11, nothing sent). A service
 * started before its database answers (a first `docker compose up`, where PostgreSQL is still in initdb) says
 * so and goes on: each cycle opens the store again (context.ts forgets a failed opening) and fails with the
 * reason until it answers, as the same outage mid-run does.
 */
async function claimsOf(opts: EnsureCommandOptions, note: (line: string) => void): Promise<() => Promise<Claims>> {
  let claims: Promise<Claims> | undefined;
  const open = () => {
    const opening = (claims ??= opts.state().then((store) => store.claims({ note, everyMs: opts.everyMs })));
    opening.catch(() => (claims = undefined));
    return opening;
  };
  try {
    await open();
  } catch (error) {
    if (opts.everyMs === undefined || !(error instanceof CliError) || error.exitCode !== ExitCode.stateStore)
      throw error;
    note(`energy: the state store cannot be used yet (${error.message}); each cycle tries it again`);
  }
  return open;
}

/**
 * What the fleet knows of accounts, through the store as it opens (a service may start before its database
 * answers). A store that keeps none (a folder), or one that cannot be reached, knows nothing: the node is asked.
 */
function knownAccountsOf(opts: EnsureCommandOptions): KnownAccounts {
  const fleet = async () => (await opts.state()).knownAccounts?.();
  return {
    known: async (node, addresses) => (await fleet())?.known(node, addresses) ?? new Set(),
    add: async (node, addresses) => (await fleet())?.add(node, addresses),
  };
}

/** Orders the fleet knows ended, for this run's API key (as knownAccountsOf: none known where none is kept). */
function finalOrdersOf(opts: EnsureCommandOptions): FinalOrders {
  const fleet = async () => (await opts.state()).finalOrders?.((await opts.journal()).scope.keyId);
  return {
    known: async (ids) => (await fleet())?.known(ids) ?? new Set(),
    add: async (ids) => (await fleet())?.add(ids),
  };
}

/**
 * --max-spend's rule (ensure/spend-ceiling.ts, where a request past it is refused) over the run's Ceiling, as
 * ensure-options.ts parsed it, and its ledger in the state store (shared in PostgreSQL): the API key's own, or
 * the --budget's; opened at the first order, so that a run with enough energy never touches it.
 */
async function ceilingFor(opts: EnsureCommandOptions): Promise<SpendCeiling | undefined> {
  const { ceiling } = opts.run;
  if (ceiling === undefined) return undefined;
  const { SpendCeiling, ceilingLedger } = await import('../ensure/spend-ceiling.js');
  return new SpendCeiling({
    ceiling,
    open: async () => {
      const journal = await opts.journal();
      const name = ceilingLedger(ceiling, journal.scope.keyId);
      return { ledger: await (await opts.state()).spendLedger(name, journal.scope), journal };
    },
    note: (line) => opts.printer.note(line),
    serverClock: async () =>
      (await import('../ordering/server-clock.js')).readServerClock(await opts.client(), Date.now),
  });
}
