/**
 * `energy ensure <address…> --energy <n> | --transfers <n> --hours <h>`: buy only the shortfall, so that each
 * address has at least n energy (or enough for n token transfers), counting what it has on chain and what is
 * already bought but not yet delivered.
 */
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { join } from 'node:path';
import { checkTronAddress } from '../domain/address.js';
import type { EnsureDeps, EnsureItem, EnsureOptions } from '../ensure/ensure-types.js';
import { parseDuration, type StopSwitch } from '../ensure/service.js';
import {
  ConflictError,
  ReportedFailureError,
  SIGNAL_EXIT_CODES,
  SomeFailedError,
  UsageError,
} from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import { ensureTable } from '../output/ensure-views.js';
import { DEFAULT_TOLERANCE_BP } from '../ensure/shortfall.js';
import { USDT_MAINNET } from '../tron/tokens.js';
import { positiveInteger, seconds, tronAddress, trxAmount } from './arguments.js';
import type { Context } from './context.js';

interface EnsureCommandOptions {
  energy?: number;
  transfers?: number;
  to?: string;
  token: string;
  tolerance: number;
  hours: number;
  maxTotal?: string;
  yes?: boolean;
  wait?: boolean;
  waitTimeout: number;
  dryRun?: boolean;
  every?: number;
}

export function ensureCommand(ctx: Context): Command {
  return new Command('ensure')
    .summary('buy only the shortfall so that each address has at least --energy, or enough for --transfers')
    .description(
      'buy only the shortfall so that each address has at least --energy energy, or enough for --transfers token transfers: reads the chain (TRON node), counts orders not yet delivered, rounds up to whole portions',
    )
    .addArgument(new Argument('<address...>', 'TRON addresses to keep supplied'))
    .addOption(
      new Option('--energy <n>', 'energy each address should have available')
        .argParser(positiveInteger)
        .conflicts('transfers'),
    )
    .addOption(
      new Option('--transfers <n>', 'instead of --energy: enough for n transfers of --token from each address')
        .argParser(transferCount)
        .conflicts('energy'),
    )
    .addOption(
      new Option(
        '--to <address>',
        'with --transfers: the recipient to price (default: one holding none of the token)',
      ).argParser(tronAddress),
    )
    .addOption(
      new Option('--token <contract>', 'with --transfers: the TRC-20 contract')
        .argParser(tronAddress)
        .default(USDT_MAINNET, 'USDT on mainnet'),
    )
    .addOption(
      new Option(
        '--tolerance <percent>',
        'drift: a shortfall of at most this % of the target buys nothing, and --wait accepts a delivery this % short',
      )
        .argParser(tolerancePercent)
        .default(DEFAULT_TOLERANCE_BP, '1'),
    )
    .addOption(
      new Option('--hours <h>', 'rental duration of what is bought').argParser(positiveInteger).makeOptionMandatory(),
    )
    .addOption(
      new Option('--max-total <trx>', 'refuse (exit 5) when the sum of the quotes is above this').argParser(trxAmount),
    )
    .option('-y, --yes', 'consent to the quoted prices without a prompt')
    .option('--dry-run', 'show what would be bought and its price; buy nothing')
    .option('--wait', 'follow each order until final, then confirm the energy on chain (exit 8 if not)')
    .addOption(
      new Option('--wait-timeout <seconds>', 'give up waiting after this long').argParser(seconds).default(600),
    )
    .addOption(
      new Option(
        '--every <duration>',
        'run as a service: a cycle every duration (30s, 5m, 1h; with jitter) until SIGTERM or SIGINT',
      ).argParser(everyDuration),
    )
    .action(async (addressArgs: string[], options: EnsureCommandOptions, command: Command) => {
      const addresses = uniqueAddresses(addressArgs);
      const target = ensureTarget(options, command);
      await checkJournalFolder(ctx);
      const node = await ctx.tronNode();
      const { runEnsure } = await import('../ensure/run-ensure.js');
      const note = (line: string) => ctx.printer.note(line);
      const deps: EnsureDeps = {
        node,
        api: async () => ({
          client: await ctx.client(),
          journal: await ctx.journal(),
          recoverCommand: (id) =>
            id === undefined ? ctx.invocation('order', 'recover') : ctx.invocation('order', 'recover', id),
          waitCommand: (id) => ctx.invocation('order', 'wait', id),
        }),
        exclusive: (work) => oneAtATime(ctx, work),
        terminal: ctx.terminal,
        note,
        progress: ctx.printer.jsonMode && ctx.globals.verbose !== true ? undefined : note,
      };
      const run: EnsureOptions = {
        addresses,
        ...target,
        toleranceBp: options.tolerance,
        hours: options.hours,
        maxTotal: options.maxTotal,
        yes: options.yes === true,
        dryRun: options.dryRun === true,
        waitSeconds: options.wait === true ? options.waitTimeout : undefined,
      };
      if (options.every === undefined) return finish(ctx, addresses.length, await runEnsure(deps, run));
      const { runService } = await import('../ensure/service.js');
      deps.knownFinal = new Set();
      const stop = stopBetweenCycles(ctx);
      try {
        await runService({
          everyMs: options.every,
          cycle: () => runEnsure(deps, run),
          report: (cycle) =>
            ctx.printer.jsonMode
              ? ctx.printer.write(`${JSON.stringify(cycle)}\n`)
              : ctx.printer
                  .write(
                    `cycle ${cycle.cycle} at ${cycle.at}${cycle.error ? `: failed: ${cycle.error.message}` : ''}\n`,
                  )
                  .then(() => (cycle.error ? undefined : ctx.printer.table(ensureTable(cycle.items)))),
          note,
          stop,
        });
      } finally {
        stop.restore();
      }
    });
}

/** Exactly one of --energy and --transfers; --to and --token only with --transfers. */
function ensureTarget(options: EnsureCommandOptions, command: Command): Pick<EnsureOptions, 'energy' | 'transfers'> {
  if (options.transfers !== undefined) {
    return { energy: undefined, transfers: { count: options.transfers, token: options.token, to: options.to } };
  }
  if (options.energy === undefined) throw new UsageError('give the target: --energy <n> or --transfers <n>');
  const stray = ['to', 'token'].find((name) => command.getOptionValueSource(name) === 'cli');
  if (stray !== undefined) throw new UsageError(`--${stray} goes with --transfers, not --energy`);
  return { energy: options.energy, transfers: undefined };
}

/** Transfers within one rental: a bound that keeps n × the energy of one transfer an exact integer. */
const MAX_TRANSFERS = 100_000;

function transferCount(text: string): number {
  const count = positiveInteger(text);
  if (count > MAX_TRANSFERS)
    throw new InvalidArgumentError(`too many: at most ${MAX_TRANSFERS.toLocaleString('en-US')}`);
  return count;
}

/** `--tolerance 1` or `0.25` (percent, at most two decimals, below 50) as basis points: integers only. */
function tolerancePercent(text: string): number {
  const match = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(text.trim());
  const bp = match === null ? NaN : Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (!(bp < 5_000)) throw new InvalidArgumentError('must be a percentage from 0 to 49.99, e.g. 1 or 0.5');
  return bp;
}

/** One run's items printed; exit 9 when some failed (a single address: its own code). */
async function finish(ctx: Context, count: number, items: EnsureItem[]): Promise<void> {
  if (ctx.printer.jsonMode) await ctx.printer.json({ items });
  else await ctx.printer.table(ensureTable(items));
  const failed = items.filter((item) => item.error !== null);
  if (failed.length === 0) return;
  const [first] = failed;
  if (count === 1 && first?.error) throw new ReportedFailureError(first.error);
  throw new SomeFailedError(`${failed.length} of ${count} addresses failed (see above); the others stand`);
}

function everyDuration(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined)
    throw new InvalidArgumentError('must be a duration such as 30s, 5m or 1h (ms, s, m, h; at most 7 days)');
  return ms;
}

/**
 * SIGTERM and SIGINT ask the service to stop after the cycle in flight (its requests, and any order, are
 * let finish, so their outcome is journaled) instead of cutting it off; a second one exits at once, as
 * for every command. The entry's handlers are set aside meanwhile and put back afterwards.
 */
function stopBetweenCycles(ctx: Context): StopSwitch & { restore: () => void } {
  const names = ['SIGINT', 'SIGTERM'] as const;
  const saved = names.map((name) => [name, process.listeners(name)] as const);
  let requested = false;
  let wake: (() => void) | undefined;
  const onSignal = (name: (typeof names)[number]) => {
    if (requested) process.exit(SIGNAL_EXIT_CODES[name]);
    requested = true;
    ctx.printer.note(`energy: ${name}: stopping after this cycle (send it again to stop at once)`);
    wake?.();
  };
  for (const name of names) {
    process.removeAllListeners(name);
    process.on(name, onSignal);
  }
  return {
    get requested() {
      return requested;
    },
    wait: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    restore: () => {
      for (const [name, listeners] of saved) {
        process.removeListener(name, onSignal);
        for (const listener of listeners) process.on(name, listener as () => void);
      }
    },
  };
}

/** Every address checked before anything is read; a repeated one counts once. */
function uniqueAddresses(texts: readonly string[]): string[] {
  for (const text of texts) {
    const check = checkTronAddress(text);
    if (!check.ok) throw new UsageError(`${text.slice(0, 40)} is not a TRON address: ${check.reason}`);
  }
  return [...new Set(texts)];
}

/** The journal's folder, checked on every run (also one that buys nothing), as every journal command does. */
async function checkJournalFolder(ctx: Context): Promise<void> {
  const [{ journalDir, stateDir }, { assertPrivate }] = await Promise.all([
    import('../journal/state-dir.js'),
    import('../config/permissions.js'),
  ]);
  assertPrivate(journalDir(stateDir(ctx.terminal.env)), 'folder', 'state');
}

/** How long a run waits for another `ensure` to finish ordering. */
const LOCK_WAIT_MS = 60_000;
/** A lock from another host name (a shared state folder) that cannot be checked is taken over after this. */
const OTHER_HOST_STALE_MS = 600_000;

/**
 * Holds `<state folder>/ensure.lock` around `work`. A holder alive on this machine is never overtaken,
 * however slow (this run waits, then gives up with nothing bought); a dead one is taken over at once; one
 * from another host name only when it is older than ten minutes, saying so.
 */
async function oneAtATime<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
  const [{ journalDir, stateDir }, { ensurePrivateDir }, { LockTimeoutError, withFileLock }] = await Promise.all([
    import('../journal/state-dir.js'),
    import('../config/permissions.js'),
    import('../storage/file-lock.js'),
  ]);
  const dir = journalDir(stateDir(ctx.terminal.env));
  ensurePrivateDir(dir, 'state');
  const lockPath = join(dir, 'ensure.lock');
  try {
    return await withFileLock(lockPath, work, {
      timeoutMs: LOCK_WAIT_MS,
      staleMs: OTHER_HOST_STALE_MS,
      onTakeover: (holder) =>
        ctx.printer.note(
          `energy: took over ${lockPath} from process ${holder.pid} on host ${printable(holder.host, 64)}, taken ${Math.round((Date.now() - holder.since) / 1000)} s ago (another host: it cannot be checked from here, and it is older than ${OTHER_HOST_STALE_MS / 60_000} minutes)`,
        ),
    });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    const holder = error.holder;
    const who = holder === undefined ? 'a process' : `process ${holder.pid}`;
    const message = error.holderAlive
      ? `another energy ensure on this machine (${who}) has been ordering for over ${LOCK_WAIT_MS / 1000} s (${lockPath}): nothing bought`
      : `${lockPath} is held by ${who} on host ${printable(holder?.host ?? '?', 64)}, which cannot be checked from here (another machine or container sharing this state folder): nothing bought`;
    throw new ConflictError(message, {
      hint: error.holderAlive
        ? 'let it finish and run again; a lock left by a run that was killed is taken over at once'
        : `it is taken over once it is ${OTHER_HOST_STALE_MS / 60_000} minutes old; give each host its own ENERGY_STATE_DIR`,
    });
  }
}
