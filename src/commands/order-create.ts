/**
 * `energy order create`: parses the order's options and hands them to the flow (ordering/create.ts);
 * prints the order, or follows it with --wait.
 */
import { Command, Option } from 'commander';
import type { Order } from '../client/types.js';
import { orderRows } from '../output/views.js';
import { clientRequestId, rentalArguments, seconds, trxAmount } from './arguments.js';
import type { Context } from './context.js';

interface CreateOptions {
  energy: number;
  hours: number;
  expectedTotal?: string;
  maxTotal?: string;
  yes?: boolean;
  clientRequestId?: string;
  wait?: boolean;
  waitTimeout: number;
}

export function orderCreateCommand(ctx: Context): Command {
  return rentalArguments(new Command('create'))
    .summary('rent energy for an address')
    .description('rent energy for an address (asks for a quote first unless --expected-total is given)')
    .addOption(
      new Option('--expected-total <trx>', 'pay exactly this total; consent without a prompt').argParser(trxAmount),
    )
    .addOption(new Option('--max-total <trx>', 'refuse (exit 5) when the quote is above this').argParser(trxAmount))
    .option('-y, --yes', 'consent to the quoted price without a prompt')
    .addOption(new Option('--client-request-id <id>', 'idempotency key; default a new UUID').argParser(clientRequestId))
    .option('--wait', 'follow the order until it is final (exit 8 if it fails, 10 if --wait-timeout runs out)')
    .addOption(
      new Option('--wait-timeout <seconds>', 'give up waiting after this long').argParser(seconds).default(600),
    )
    .action(async (address: string, options: CreateOptions) => {
      // The client first: its credential checks say what is wrong before the journal asks for credentials.
      const client = await ctx.client();
      const journal = await ctx.journal();
      const [{ createOrder }, { followToFinal }] = await Promise.all([
        import('../ordering/create.js'),
        import('../ordering/follow-order.js'),
      ]);
      const note = (line: string) => ctx.printer.note(line);
      const { order } = await createOrder(
        {
          client,
          journal,
          terminal: ctx.terminal,
          note,
          recoverCommand: (id) => ctx.invocation('order', 'recover', id),
        },
        { ...options, address, yes: options.yes === true },
      );
      const print = (shown: Order) =>
        ctx.printer.jsonMode ? ctx.printer.json(shown) : ctx.printer.keyValue(orderRows(shown));
      if (options.wait !== true) return print(order);
      const quiet = ctx.printer.jsonMode && ctx.globals.verbose !== true;
      await followToFinal(
        {
          client,
          print,
          progress: quiet ? undefined : note,
          waitCommand: (id) => ctx.invocation('order', 'wait', id),
        },
        order,
        options.waitTimeout,
      );
    });
}
