import { Command, Option } from 'commander';
import { CliError, UsageError } from '../domain/errors.js';
import { ContextualError, InternalError } from '../domain/cli-errors.js';
import { ORDER_COLUMNS, orderCells } from '../output/views.js';
import { streamOrdersCsv, streamOrdersJson, streamOrdersTable } from '../output/order-stream.js';
import { ORDER_CSV_COLUMNS, orderCsvFields } from '../output/csv.js';
import { cursor, positiveInteger } from './arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

/**
 * `--all` without `--limit` asks for large pages (fewer round trips: 100,000 orders took 23.6 s at the
 * server's default of 20 a page, 3.3 s at 100), stepping down when the server answers 400 to a size.
 */
export const ALL_PAGE_SIZES = [1000, 100, undefined] as const;

interface ListOptions {
  limit?: number;
  cursor?: string;
  all?: boolean;
  output?: 'table' | 'csv';
}

export interface ListCommandOptions
  extends ListOptions, Pick<CommandServices, 'client' | 'terminal' | 'printer' | 'invocation'> {}

export function orderListCommand(
  ctx: Context,
  run: (options: ListCommandOptions) => Promise<void> = orderListRun,
): Command {
  return new Command('list')
    .description('list orders, newest first')
    .addOption(new Option('--limit <n>', 'orders per page').argParser(positiveInteger))
    .addOption(new Option('--cursor <c>', 'start at this page (next_cursor of the previous one)').argParser(cursor))
    .option('--all', 'follow every page to the end (streamed: memory stays flat)')
    .addOption(
      new Option('--output <format>', 'table (default), csv (RFC 4180, one row an order), or json (--json)').choices([
        'table',
        'csv',
      ]),
    )
    .action((parsed: ListOptions) => run({ ...parsed, ...ctx.services() }));
}

export async function orderListRun(options: ListCommandOptions): Promise<void> {
  const { printer } = options;
  const csv = options.output === 'csv';
  if (csv && printer.jsonMode) throw new UsageError('--json and --output csv cannot be used together');
  const client = await options.client();
  const params = { limit: options.limit, cursor: options.cursor };
  if (options.all === true) {
    // Ctrl-C, SIGTERM or SIGHUP: the listing ends its output validly at the first page not read.
    const stop = options.terminal.interrupt ?? new AbortController().signal;
    const progress = { resumeCursor: options.cursor ?? null, ordersWritten: 0, stop };
    const pages = client.orderPages({ ...params, pageSizes: ALL_PAGE_SIZES, signal: stop });
    let complete: boolean;
    try {
      const stream = csv ? streamOrdersCsv : printer.jsonMode ? streamOrdersJson : streamOrdersTable;
      complete = await stream(printer, pages, progress);
    } catch (error) {
      throw progress.ordersWritten === 0 || !(error instanceof CliError)
        ? error
        : explainPartial(error, progress.resumeCursor, options);
    }
    if (!complete) {
      const reason: unknown = stop.reason;
      const error = reason instanceof CliError ? reason : new InternalError('the listing was stopped');
      throw explainPartial(error, progress.resumeCursor, options);
    }
    return;
  }
  const page = await client.listOrders(params);
  if (printer.jsonMode) {
    await printer.json(page);
    return;
  }
  if (csv) await printer.csv([ORDER_CSV_COLUMNS, ...page.items.map(orderCsvFields)]);
  else if (page.items.length === 0) printer.note('no orders');
  else await printer.table({ columns: ORDER_COLUMNS, rows: page.items.map(orderCells) });
  if (page.next_cursor !== null) printer.note(`more: ${listCommand(page.next_cursor, options)}`);
}

/** The command that reads on from `cursor` in the same account, output and page size. */
function listCommand(cursorText: string, options: ListCommandOptions, all = false): string {
  const limit = options.limit === undefined ? [] : ['--limit', String(options.limit)];
  const output = options.output === 'csv' ? ['--output', 'csv'] : [];
  const words = ['order', 'list', ...(all ? ['--all'] : []), ...limit, ...output, '--cursor', cursorText];
  // Appended to the same file, the next pages must not repeat the CSV header line.
  return `${options.invocation(...words)}${options.output === 'csv' ? ' | tail -n +2' : ''}`;
}

function explainPartial(error: CliError, resumeCursor: string | null, options: ListCommandOptions): CliError {
  return new ContextualError(`${error.message} (after the orders already printed)`, error, {
    hint: resumeCursor === null ? undefined : `read on with: ${listCommand(resumeCursor, options, true)}`,
  });
}
