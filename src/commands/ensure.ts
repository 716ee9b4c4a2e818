/**
 * `energy ensure <address…> --energy <n> | --transfers <n> --hours <h>`: buy only the shortfall, so that each
 * address has at least n energy (or enough for n token transfers), counting what it has on chain and what is
 * already bought but not yet delivered. As `order create`: the command line parses into
 * `EnsureCommandOptions` and runs them (`ensureRun`: the flow is ensure/ and service/); tests pass their own
 * `run` to see what a command line parses into.
 */
import { Argument, Command, Option } from 'commander';
import { ensureTarget, tolerancePercent, transferCount, uniqueAddresses } from '../ensure/ensure-arguments.js';
import { DEFAULT_TOLERANCE_BP } from '../ensure/shortfall.js';
import { USDT_MAINNET } from '../tron/tokens.js';
import { positiveInteger, tronAddress, trxAmount, wholeHours } from './arguments.js';
import { everyDuration, waitTimeoutOption } from './duration-arguments.js';
import { UsageError } from '../domain/errors.js';
import type { Context } from './context.js';
import { ensureRun, type EnsureCommandOptions } from './ensure-run.js';
import { budgetName, ceilingOf, listenAddress, maxSpend, watchOptions, type Parsed } from './ensure-options.js';
import { renewBeforeDuration, renewBeforeMs } from './ensure-options.js';

export type { EnsureCommandOptions } from './ensure-run.js';

export function ensureCommand(
  ctx: Context,
  run: (options: EnsureCommandOptions) => Promise<void> = ensureRun,
): Command {
  return new Command('ensure')
    .summary('buy only the shortfall so that each address has at least --energy, or enough for --transfers')
    .description(
      'buy only the shortfall so that each address has at least --energy energy, or enough for --transfers token transfers: reads the chain (TRON node), counts orders not yet delivered, rounds up to whole portions',
    )
    .addArgument(new Argument('[address...]', 'TRON addresses to keep supplied (or --file)'))
    .option(
      '--file <path>',
      'the addresses from a file, one a line (# comments, blank lines), or - for stdin; a service reads it again each cycle',
    )
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
      new Option('--hours <h>', 'rental duration of what is bought').argParser(wholeHours).makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--max-total <trx>',
        'refuse all (exit 5) when the sum of the quotes is above this; with --place-what-fits, buy what fits under it in the order given',
      ).argParser(trxAmount),
    )
    .addOption(
      new Option(
        '--max-spend <trx/duration>',
        'at most this much ordered over any rolling window, e.g. 50/24h (exit 5 past it): the ledger of the API key, or of --budget, in the state store: the state folder, or PostgreSQL with --state-url; survives restarts',
      ).argParser(maxSpend),
    )
    .addOption(
      new Option(
        '--budget <name>',
        'with --max-spend: count in the ledger of this name, shared by all who name it',
      ).argParser(budgetName),
    )
    .option('-y, --yes', 'consent to the quoted prices without a prompt')
    .option('--dry-run', 'show what would be bought and its price; buy nothing')
    .option(
      '--place-what-fits',
      'when the balance (or --max-total) cannot pay the sum, buy for the addresses it covers, in the order given (the rest fail)',
    )
    .option('--wait', 'follow each order until final, then confirm the energy on chain (exit 8 if not)')
    .addOption(waitTimeoutOption())
    .addOption(
      new Option(
        '--every <duration>',
        'run as a service: a cycle every duration (30s, 5m, 1h, 1d; with jitter) until SIGTERM or SIGINT',
      ).argParser(everyDuration),
    )
    .addOption(
      new Option(
        '--metrics <[host:]port>',
        'with --every: serve /metrics (Prometheus) and the probes /livez and /readyz there (a port alone: loopback only)',
      ).argParser(listenAddress),
    )
    .addOption(
      new Option(
        '--min-balance <trx>',
        'with --every: raise a low_balance event when the balance is below this',
      ).argParser(trxAmount),
    )
    .addOption(
      new Option(
        '--renew-before <duration>',
        'buy before a rental ends within this (server time), so that the next lands first; 0: once it has ended (default: with --every, its interval + 1m, at least 2m; else 0)',
      ).argParser(renewBeforeDuration),
    )
    .option('--on-event <command>', 'with --every: run the command with each event as JSON on its stdin')
    .action(async (addressArgs: string[], parsed: Parsed, command: Command) => {
      if (addressArgs.length === 0 && parsed.file === undefined)
        throw new UsageError('give the addresses to keep supplied: as arguments, or --file <path>');
      const addresses = uniqueAddresses(addressArgs);
      const target = ensureTarget(parsed, (name) => command.getOptionValueSource(name) === 'cli');
      await run({
        run: {
          addresses,
          ...target,
          toleranceBp: parsed.tolerance,
          hours: parsed.hours,
          maxTotal: parsed.maxTotal,
          ceiling: ceilingOf(parsed),
          yes: parsed.yes === true,
          dryRun: parsed.dryRun === true,
          placeWhatFits: parsed.placeWhatFits === true,
          waitSeconds: parsed.wait === true ? parsed.waitTimeout : undefined,
          renewBeforeMs: renewBeforeMs(parsed),
        },
        addressFile: parsed.file,
        everyMs: parsed.every,
        watch: { ...watchOptions(parsed), version: command.parent?.version() },
        tronNode: () => ctx.tronNode(),
        ...ctx.services(),
      });
    });
}
