/** `energy order get <id>`: one order, by its id or the first 8 characters of it. */
import { Argument, Command } from 'commander';
import { orderRows } from '../output/views.js';
import { orderId } from './arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface GetCommandOptions extends Pick<CommandServices, 'client' | 'printer' | 'invocation'> {
  orderId: string;
}

export function orderGetCommand(
  ctx: Context,
  run: (options: GetCommandOptions) => Promise<void> = orderGetRun,
): Command {
  return new Command('get')
    .description('show one order')
    .addArgument(new Argument('<id>', 'order id (a UUID, or its first 8 characters)').argParser(orderId))
    .action((id: string) => run({ orderId: id, ...ctx.services() }));
}

export async function orderGetRun(opts: GetCommandOptions): Promise<void> {
  const { printer } = opts;
  const client = await opts.client();
  const { resolveOrderId } = await import('../ordering/resolve-order-id.js');
  const order = await client.getOrder(await resolveOrderId(client, opts.orderId, opts.invocation('order', 'list')));
  await (printer.jsonMode ? printer.json(order) : printer.keyValue(orderRows(order)));
}
