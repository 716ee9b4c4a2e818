import { Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../domain/errors.js';
import { energyPriceOrNull } from '../tron/burn-cost.js';
import { spendCells, spendColumns, spendCsv, spendRows } from '../output/spend-views.js';
import type { TronNode } from '../tron/tron-node.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

/** As `order list --all`: large pages first, stepping down when the server refuses a size (400). */
const PAGE_SIZES = [1000, 100, undefined] as const;

interface SpendOptions {
  since?: number;
  until?: number;
  by?: 'day' | 'address' | 'status';
  output?: 'table' | 'csv';
}

export interface SpendCommandOptions extends SpendOptions, Pick<CommandServices, 'client' | 'terminal' | 'printer'> {
  /** The TRON node when one is configured, for rent or burn; else undefined (nothing asked, nothing added). */
  configuredNode: () => Promise<TronNode | undefined>;
}

function reportTime(text: string): number {
  // Checked at parse time; the parser itself is loaded with the report (see the action).
  const date = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
  const ms = date.test(text) ? Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text) : Number.NaN;
  if (Number.isNaN(ms))
    throw new InvalidArgumentError('must be a UTC date (2026-11-01) or a date-time with Z or an offset');
  return ms;
}

export function spendCommand(ctx: Context, run: (options: SpendCommandOptions) => Promise<void> = spendRun): Command {
  return new Command('spend')
    .description('what the account spent on orders, summed exactly (failed orders excluded)')
    .addOption(
      new Option('--since <date-time>', 'from this time on (a date is its UTC midnight)').argParser(reportTime),
    )
    .addOption(new Option('--until <date-time>', 'before this time (exclusive)').argParser(reportTime))
    .addOption(
      new Option('--by <group>', 'one row a group: UTC day, address or status').choices(['day', 'address', 'status']),
    )
    .addOption(new Option('--output <format>', 'table (default), csv, or json (--json)').choices(['table', 'csv']))
    .action((parsed: SpendOptions) =>
      run({ ...parsed, configuredNode: () => ctx.configuredTronNode(), ...ctx.services() }),
    );
}

export async function spendRun(options: SpendCommandOptions): Promise<void> {
  const { printer } = options;
  const csv = options.output === 'csv';
  if (csv && printer.jsonMode) throw new UsageError('--json and --output csv cannot be used together');
  if (options.since !== undefined && options.until !== undefined && options.since >= options.until)
    throw new UsageError('--since must be before --until');
  const [client, node, { spendReport, withBurn }] = await Promise.all([
    options.client(),
    options.configuredNode(),
    import('../reports/spend.js'),
  ]);
  const stop = options.terminal.interrupt ?? new AbortController().signal;
  const pages = client.orderPages({ pageSizes: PAGE_SIZES, signal: stop });
  // Rent or burn only where a TRON node is configured: without one, nothing is asked and nothing added.
  const [summed, price] = await Promise.all([
    spendReport(pages, { sinceMs: options.since, untilMs: options.until, by: options.by }, (line) =>
      printer.note(line),
    ),
    node === undefined ? undefined : energyPriceOrNull(node, (line) => printer.note(line)),
  ]);
  stop.throwIfAborted();
  const report = price === undefined ? summed : withBurn(summed, price);
  if (printer.jsonMode) await printer.json(report);
  else if (csv) await printer.csv(spendCsv(report, options.by !== undefined));
  else if (options.by === undefined) await printer.keyValue(spendRows(report));
  else await printer.table({ columns: spendColumns(report), rows: spendCells(report) });
}
