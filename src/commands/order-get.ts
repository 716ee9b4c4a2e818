import { Argument, Command } from 'commander';
import { orderRows } from '../output/views.js';
import { orderId } from './arguments.js';
import type { Context } from './context.js';

export function orderGetCommand(ctx: Context): Command {
  return new Command('get')
    .description('show one order')
    .addArgument(new Argument('<id>', 'order id (a UUID, or its first 8 characters)').argParser(orderId))
    .action(async (id: string) => {
      const client = await ctx.client();
      const { resolveOrderId } = await import('../ordering/resolve-order-id.js');
      const order = await client.getOrder(await resolveOrderId(client, id, ctx.invocation('order', 'list')));
      await (ctx.printer.jsonMode ? ctx.printer.json(order) : ctx.printer.keyValue(orderRows(order)));
    });
}
