/**
 * `energy ensure <address…> --energy <n> | --transfers <n> --hours <h>`: buy only the shortfall, so that each
 * address has at least n energy (or enough for n token transfers), counting what it has on chain and what is
 * already bought but not yet delivered.
 */
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { join } from 'node:path';
import { checkTronAddress } from '../domain/address.js';
import type { EnsureDeps, EnsureOptions } from '../ensure/ensure-types.js';
import { CliError, ExitCode, UsageError } from '../domain/errors.js';
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
    .action(async (addressArgs: string[], options: EnsureCommandOptions, command: Command) => {
      const addresses = uniqueAddresses(addressArgs);
      const target = ensureTarget(options, command);
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
      const items = await runEnsure(deps, run);
      if (ctx.printer.jsonMode) await ctx.printer.json({ items });
      else await ctx.printer.table(ensureTable(items));
      const failed = items.filter((item) => item.error !== null);
      if (failed.length === 0) return;
      const [first] = failed;
      if (addresses.length === 1 && first?.error)
        throw new CliError(first.error.message, first.error.exit_code as ExitCode);
      throw new CliError(
        `${failed.length} of ${addresses.length} addresses failed (see above); the others stand`,
        ExitCode.someFailed,
      );
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

/** Every address checked before anything is read; a repeated one counts once. */
function uniqueAddresses(texts: readonly string[]): string[] {
  for (const text of texts) {
    const check = checkTronAddress(text);
    if (!check.ok) throw new UsageError(`${text.slice(0, 40)} is not a TRON address: ${check.reason}`);
  }
  return [...new Set(texts)];
}

/** How long a run waits for another `ensure` on this machine to finish ordering. */
const LOCK_WAIT_MS = 60_000;

/**
 * Holds `<state folder>/ensure.lock` around `work`. A holder that died is taken over at once; one still
 * asking for consent at a prompt after ten minutes is taken over too (cron runs never prompt).
 */
async function oneAtATime<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
  const [{ stateDir }, { ensurePrivateDir }, { LockTimeoutError, withFileLock }] = await Promise.all([
    import('../journal/state-dir.js'),
    import('../config/permissions.js'),
    import('../storage/file-lock.js'),
  ]);
  const dir = stateDir(ctx.terminal.env);
  ensurePrivateDir(dir, 'state');
  const lockPath = join(dir, 'ensure.lock');
  try {
    return await withFileLock(lockPath, work, { timeoutMs: LOCK_WAIT_MS, staleMs: 600_000 });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    throw new CliError(
      `another energy ensure on this machine has been ordering for over ${LOCK_WAIT_MS / 1000} s (${lockPath}): nothing bought`,
      ExitCode.conflict,
      {
        hint: 'let it finish and run again; a lock left by a run that was killed is taken over at once',
      },
    );
  }
}
