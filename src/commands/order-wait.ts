/** `energy order wait <id>`: parses into `WaitCommandOptions` and follows the order (ordering/follow-order.ts). */
import { Argument, Command } from 'commander';
import type { Order } from '../client/types.js';
import { orderRows } from '../output/views.js';
import { orderId } from './arguments.js';
import { waitTimeoutOption } from './duration-arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface WaitCommandOptions extends Pick<CommandServices, 'client' | 'printer' | 'verbose' | 'invocation'> {
  orderId: string;
  timeoutSeconds: number;
}

export function orderWaitCommand(
  ctx: Context,
  run: (options: WaitCommandOptions) => Promise<void> = orderWaitRun,
): Command {
  return new Command('wait')
    .summary('follow an order until it is final')
    .description(
      'follow an order until it is final: delivered, ended or failed (exit 8 if it did not deliver, 10 if --wait-timeout runs out)',
    )
    .addArgument(new Argument('<id>', 'order id (a UUID, or its first 8 characters)').argParser(orderId))
    .addOption(waitTimeoutOption())
    .action((id: string, parsed: { waitTimeout: number }) =>
      run({ orderId: id, timeoutSeconds: parsed.waitTimeout, ...ctx.services() }),
    );
}

export async function orderWaitRun(opts: WaitCommandOptions): Promise<void> {
  const client = await opts.client();
  const [{ followToFinal }, { resolveOrderId }] = await Promise.all([
    import('../ordering/follow-order.js'),
    import('../ordering/resolve-order-id.js'),
  ]);
  const { printer } = opts;
  const follower = {
    client,
    print: (order: Order) => (printer.jsonMode ? printer.json(order) : printer.keyValue(orderRows(order))),
    progress: printer.jsonMode && !opts.verbose ? undefined : (line: string) => printer.note(line),
    waitCommand: (id: string) => opts.invocation('order', 'wait', id),
  };
  const id = await resolveOrderId(client, opts.orderId, opts.invocation('order', 'list'));
  await followToFinal(follower, await client.getOrder(id), opts.timeoutSeconds);
}
