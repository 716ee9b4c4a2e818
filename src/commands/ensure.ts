/**
 * `energy ensure <address…> --energy <n> | --transfers <n> --hours <h>`: buy only the shortfall, so that each
 * address has at least n energy (or enough for n token transfers), counting what it has on chain and what is
 * already bought but not yet delivered.
 */
import { Argument, Command, Option } from 'commander';
import { ensureTarget, tolerancePercent, transferCount, uniqueAddresses } from '../ensure/ensure-arguments.js';
import { cycleLine, ensureTable } from '../output/ensure-views.js';
import { DEFAULT_TOLERANCE_BP } from '../ensure/shortfall.js';
import { USDT_MAINNET } from '../tron/tokens.js';
import { everyDuration, positiveInteger, tronAddress, trxAmount, waitTimeoutOption } from './arguments.js';
import type { Context } from './context.js';
import { ensureLockPath } from '../journal/state-dir.js';

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
  placeWhatFits?: boolean;
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
        .argParser((text) => transferCount(text, positiveInteger))
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
    .option('--place-what-fits', 'when the balance cannot pay the sum, buy for the addresses it covers (the rest fail)')
    .option('--wait', 'follow each order until final, then confirm the energy on chain (exit 8 if not)')
    .addOption(waitTimeoutOption())
    .addOption(
      new Option(
        '--every <duration>',
        'run as a service: a cycle every duration (30s, 5m, 1h, 1d; with jitter) until SIGTERM or SIGINT',
      ).argParser(everyDuration),
    )
    .action(async (addressArgs: string[], options: EnsureCommandOptions, command: Command) => {
      const addresses = uniqueAddresses(addressArgs);
      const target = ensureTarget(options, (name) => command.getOptionValueSource(name) === 'cli');
      const lockPath = await ensureLockPath(ctx.terminal.env);
      const node = await ctx.tronNode();
      const [{ runOrServe }, { withEnsureLock }] = await Promise.all([
        import('../ensure/run-or-serve.js'),
        import('../ensure/ensure-lock.js'),
      ]);
      const note = (line: string) => ctx.printer.note(line);
      const printer = ctx.printer;
      await runOrServe({
        deps: {
          node,
          api: async () => ({
            client: await ctx.client(),
            journal: await ctx.journal(),
            recoverCommand: (id) =>
              id === undefined ? ctx.invocation('order', 'recover') : ctx.invocation('order', 'recover', id),
            waitCommand: (id) => ctx.invocation('order', 'wait', id),
          }),
          exclusive: async (work) => withEnsureLock(await lockPath(), work, note),
          terminal: ctx.terminal,
          note,
          progress: printer.jsonMode && ctx.globals.verbose !== true ? undefined : note,
          trace: ctx.globals.verbose === true ? (line) => printer.verbose(line) : undefined,
        },
        run: {
          addresses,
          ...target,
          toleranceBp: options.tolerance,
          hours: options.hours,
          maxTotal: options.maxTotal,
          yes: options.yes === true,
          dryRun: options.dryRun === true,
          placeWhatFits: options.placeWhatFits === true,
          waitSeconds: options.wait === true ? options.waitTimeout : undefined,
        },
        everyMs: options.every,
        print: (items) => (printer.jsonMode ? printer.json({ items }) : printer.table(ensureTable(items))),
        printCycle: async (cycle) => {
          if (printer.jsonMode) return printer.write(`${JSON.stringify(cycle)}\n`);
          await printer.write(cycleLine(cycle));
          if (!cycle.error) await printer.table(ensureTable(cycle.items));
        },
      });
    });
}
