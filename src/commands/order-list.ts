import { Command, Option } from 'commander';
import { CliError, ContextualError, InternalError } from '../domain/errors.js';
import { ORDER_COLUMNS, ORDER_COLUMN_WIDTHS, orderCells } from '../output/views.js';
import { streamOrdersJson, streamOrdersTable } from '../output/order-stream.js';
import { cursor, positiveInteger } from './arguments.js';
import type { Context } from './context.js';
import { contextWords, shellQuote, type GlobalOptions } from './shell-words.js';

/**
 * `--all` without `--limit` asks for large pages (fewer round trips: 100,000 orders took 23.6 s at the
 * server's default of 20 a page, 3.3 s at 100), stepping down when the server answers 400 to a size.
 */
export const ALL_PAGE_SIZES = [1000, 100, undefined] as const;

interface ListOptions {
  limit?: number;
  cursor?: string;
  all?: boolean;
}

export function orderListCommand(ctx: Context): Command {
  return new Command('list')
    .description('list orders, newest first')
    .addOption(new Option('--limit <n>', 'orders per page').argParser(positiveInteger))
    .addOption(new Option('--cursor <c>', 'start at this page (next_cursor of the previous one)').argParser(cursor))
    .option('--all', 'follow every page to the end (streamed: memory stays flat)')
    .action(async (options: ListOptions) => {
      const client = await ctx.client();
      const params = { limit: options.limit, cursor: options.cursor };
      if (options.all === true) {
        // Ctrl-C, SIGTERM or SIGHUP: the listing ends its output validly at the first page not read.
        const stop = ctx.terminal.interrupt ?? new AbortController().signal;
        const progress = { resumeCursor: options.cursor ?? null, ordersWritten: 0, stop };
        const pages = client.orderPages({ ...params, pageSizes: ALL_PAGE_SIZES, signal: stop });
        let complete: boolean;
        try {
          complete = await (ctx.printer.jsonMode
            ? streamOrdersJson(ctx.printer, pages, progress)
            : streamOrdersTable(ctx.printer, pages, progress));
        } catch (error) {
          throw progress.ordersWritten === 0 || !(error instanceof CliError)
            ? error
            : explainPartial(error, progress.resumeCursor, options, ctx.globals);
        }
        if (!complete) {
          const reason: unknown = stop.reason;
          const error = reason instanceof CliError ? reason : new InternalError('the listing was stopped');
          throw explainPartial(error, progress.resumeCursor, options, ctx.globals);
        }
        return;
      }
      const page = await client.listOrders(params);
      if (ctx.printer.jsonMode) {
        await ctx.printer.json(page);
        return;
      }
      if (page.items.length === 0) ctx.printer.note('no orders');
      else
        await ctx.printer.table({ head: ORDER_COLUMNS, widths: ORDER_COLUMN_WIDTHS, rows: page.items.map(orderCells) });
      if (page.next_cursor !== null) ctx.printer.note(`more: ${listCommand(page.next_cursor, options, ctx.globals)}`);
    });
}

/** The command that reads on from `cursor` in the same account, output and page size. */
function listCommand(cursorText: string, options: ListOptions, globals: GlobalOptions, all = false): string {
  const limit = options.limit === undefined ? [] : ['--limit', String(options.limit)];
  return [
    'energy',
    ...contextWords(globals),
    'order',
    'list',
    ...(all ? ['--all'] : []),
    ...limit,
    '--cursor',
    shellQuote(cursorText),
  ].join(' ');
}

function explainPartial(
  error: CliError,
  resumeCursor: string | null,
  options: ListOptions,
  globals: GlobalOptions,
): CliError {
  return new ContextualError(`${error.message} (after the orders already printed)`, error, {
    hint: resumeCursor === null ? undefined : `read on with: ${listCommand(resumeCursor, options, globals, true)}`,
  });
}
