import { Argument, Command } from 'commander';
import { orderRows } from '../output/views.js';
import { orderId } from './arguments.js';
import type { Context } from './context.js';

export function orderGetCommand(ctx: Context): Command {
  return new Command('get')
    .description('show one order')
    .addArgument(new Argument('<id>', 'order id (a UUID)').argParser(orderId))
    .action(async (id: string) => {
      const order = await (await ctx.client()).getOrder(id);
      await (ctx.printer.jsonMode ? ctx.printer.json(order) : ctx.printer.keyValue(orderRows(order)));
    });
}
