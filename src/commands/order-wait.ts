import { Argument, Command, Option } from 'commander';
import type { Order } from '../client/types.js';
import { orderRows } from '../output/views.js';
import { orderId, seconds } from './arguments.js';
import type { Context } from './context.js';

export function orderWaitCommand(ctx: Context): Command {
  return new Command('wait')
    .summary('follow an order until it is final')
    .description('follow an order until it is final: delivered, ended or failed (exit 8 if it did not deliver)')
    .addArgument(new Argument('<id>', 'order id (a UUID)').argParser(orderId))
    .addOption(
      new Option('--wait-timeout <seconds>', 'give up waiting after this long').argParser(seconds).default(600),
    )
    .action(async (id: string, options: { waitTimeout: number }) => {
      const client = await ctx.client();
      const { followToFinal } = await import('../ordering/follow-order.js');
      const print = (order: Order) =>
        ctx.printer.jsonMode ? ctx.printer.json(order) : ctx.printer.keyValue(orderRows(order));
      const quiet = ctx.printer.jsonMode && ctx.globals.verbose !== true;
      await followToFinal(
        {
          client,
          print,
          progress: quiet ? undefined : (line) => ctx.printer.note(line),
          waitCommand: (orderIdText) => ctx.invocation('order', 'wait', orderIdText),
        },
        await client.getOrder(id),
        options.waitTimeout,
      );
    });
}
