import { Command, Option } from 'commander';
import { ORDER_COLUMNS, ORDER_COLUMN_WIDTHS, orderCells } from '../output/views.js';
import { streamOrdersJson, streamOrdersTable } from '../output/order-stream.js';
import { cursor, positiveInteger } from './arguments.js';
import type { Context } from './context.js';

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
        const orders = client.allOrders(params);
        await (ctx.printer.jsonMode ? streamOrdersJson(ctx.printer, orders) : streamOrdersTable(ctx.printer, orders));
        return;
      }
      const page = await client.listOrders(params);
      if (ctx.printer.jsonMode) {
        await ctx.printer.json(page);
        return;
      }
      if (page.items.length === 0) ctx.printer.note('no orders');
      else await ctx.printer.table({ head: ORDER_COLUMNS, widths: ORDER_COLUMN_WIDTHS, rows: page.items.map(orderCells) });
      if (page.next_cursor !== null) ctx.printer.note(`more: energy order list --cursor ${page.next_cursor}`);
    });
}
