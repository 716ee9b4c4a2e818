/**
 * `energy ensure <address…> --energy <n> | --transfers <n> --hours <h>`: buy only the shortfall, so that each
 * address has at least n energy (or enough for n token transfers), counting what it has on chain and what is
 * already bought but not yet delivered. As `order create`: the command line parses into
 * `EnsureCommandOptions` and runs them (`ensureRun`: the flow is ensure/ and service/); tests pass their own
 * `run` to see what a command line parses into.
 */
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../domain/errors.js';
import { ensureTarget, tolerancePercent, transferCount, uniqueAddresses } from '../ensure/ensure-arguments.js';
import type { EnsureOptions } from '../ensure/ensure-types.js';
import { DEFAULT_TOLERANCE_BP } from '../ensure/shortfall.js';
import { cycleLine, ensureTable } from '../output/ensure-views.js';
import { parseListenAddress } from '../service/listen-address.js';
import type { WatchOptions } from '../service/observer.js';
import type { TronNode } from '../tron/tron-node.js';
import { USDT_MAINNET } from '../tron/tokens.js';
import type { MaxSpend, SpendCeiling } from '../ensure/spend-ceiling.js';
import type { SpendLedger } from '../journal/spend-ledger.js';
import {
  everyDuration,
  parseDuration,
  positiveInteger,
  tronAddress,
  trxAmount,
  waitTimeoutOption,
} from './arguments.js';
import type { CommandServices, Context } from './context.js';

export interface EnsureCommandOptions extends CommandServices {
  run: EnsureOptions;
  /** --every: milliseconds between cycles; undefined for one run. */
  everyMs: number | undefined;
  /** --metrics, --min-balance, --on-event: only with --every. */
  watch: WatchOptions;
  tronNode: () => Promise<TronNode>;
}

interface Parsed {
  energy?: number;
  transfers?: number;
  to?: string;
  token: string;
  tolerance: number;
  hours: number;
  maxTotal?: string;
  maxSpend?: MaxSpend;
  yes?: boolean;
  wait?: boolean;
  waitTimeout: number;
  dryRun?: boolean;
  placeWhatFits?: boolean;
  every?: number;
  metrics?: WatchOptions['metrics'];
  minBalance?: string;
  onEvent?: string;
}

/** `--max-spend 50/24h`: a TRX amount above 0, a slash, a duration of at most a year. */
function maxSpend(text: string): MaxSpend {
  const [amount, window, ...rest] = text.split('/');
  if (window === undefined || rest.length > 0) {
    throw new InvalidArgumentError('must be <trx>/<duration>, e.g. 50/24h (at most 50 TRX in any 24 hours)');
  }
  const trx = trxAmount(amount!.trim());
  if (!/[1-9]/.test(trx)) throw new InvalidArgumentError('the amount must be above 0');
  const windowMs = parseDuration(window);
  if (windowMs === undefined || windowMs > 366 * 86_400_000) {
    throw new InvalidArgumentError('the duration must be one such as 1h, 24h or 7d (at most 366d)');
  }
  return { trx, windowMs, text: `${trx.replace(/\.?0+$/, '')}/${window.trim()}` };
}

function listenAddress(text: string): NonNullable<WatchOptions['metrics']> {
  const address = parseListenAddress(text);
  if (address === undefined) throw new InvalidArgumentError('must be a port, or host:port (e.g. 9464, 0.0.0.0:9464)');
  return address;
}

/** The service's watchers, which need the service: refused with one run (exit 2). */
function watchOptions(parsed: Parsed): WatchOptions {
  const watch = { metrics: parsed.metrics, minBalance: parsed.minBalance, onEvent: parsed.onEvent };
  const given = (['metrics', 'minBalance', 'onEvent'] as const).find((key) => watch[key] !== undefined);
  if (given !== undefined && parsed.every === undefined) {
    const flag = { metrics: '--metrics', minBalance: '--min-balance', onEvent: '--on-event' }[given];
    throw new UsageError(`${flag} goes with --every: it watches a running service`);
  }
  return watch;
}

export function ensureCommand(
  ctx: Context,
  run: (options: EnsureCommandOptions) => Promise<void> = ensureRun,
): Command {
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
    .addOption(
      new Option(
        '--max-spend <trx/duration>',
        'at most this much ordered over any rolling window, e.g. 50/24h (kept in the state folder; survives restarts)',
      ).argParser(maxSpend),
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
    .addOption(
      new Option(
        '--metrics <[host:]port>',
        'with --every: serve /metrics (Prometheus) and /healthz there (a port alone: loopback only)',
      ).argParser(listenAddress),
    )
    .addOption(
      new Option(
        '--min-balance <trx>',
        'with --every: raise a low_balance event when the balance is below this',
      ).argParser(trxAmount),
    )
    .option('--on-event <command>', 'with --every: run the command with each event as JSON on its stdin')
    .action(async (addressArgs: string[], parsed: Parsed, command: Command) => {
      const addresses = uniqueAddresses(addressArgs);
      const target = ensureTarget(parsed, (name) => command.getOptionValueSource(name) === 'cli');
      await run({
        run: {
          addresses,
          ...target,
          toleranceBp: parsed.tolerance,
          hours: parsed.hours,
          maxTotal: parsed.maxTotal,
          maxSpend: parsed.maxSpend,
          yes: parsed.yes === true,
          dryRun: parsed.dryRun === true,
          placeWhatFits: parsed.placeWhatFits === true,
          waitSeconds: parsed.wait === true ? parsed.waitTimeout : undefined,
        },
        everyMs: parsed.every,
        watch: watchOptions(parsed),
        tronNode: () => ctx.tronNode(),
        ...ctx.services(),
      });
    });
}

async function ensureRun(opts: EnsureCommandOptions): Promise<void> {
  const { printer } = opts;
  const note = (line: string) => printer.note(line);
  // The store is checked first (a state folder others can read, a database that cannot be reached).
  const decide = await (await opts.state()).decisions(note);
  const node = await opts.tronNode();
  const { runOrServe } = await import('../service/run-or-serve.js');
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
      exclusive: async (work, addresses) => decide(work, { scope: (await opts.journal()).scope, addresses }),
      spendCeiling,
      terminal: opts.terminal,
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

/** --max-spend's ceiling over the ledger in the state store, beside this API account's journal (shared in PostgreSQL). */
async function ceilingFor(opts: EnsureCommandOptions): Promise<SpendCeiling | undefined> {
  const limit = opts.run.maxSpend;
  if (limit === undefined) return undefined;
  const { SpendCeiling } = await import('../ensure/spend-ceiling.js');
  let ledger: Promise<SpendLedger> | undefined;
  const open = async () => {
    const { scope } = await opts.journal();
    ledger ??= opts.state().then((store) => store.spendLedger(scope));
    return ledger;
  };
  return new SpendCeiling(limit, open, new Set(opts.run.addresses));
}
