/**
 * `energy order create`: parses the order's options into `CreateCommandOptions` and runs them (gh's
 * NewCmd + Options + run): the flow itself is ordering/create.ts; this prints the order, or follows it
 * with --wait. Tests pass their own `run` to see what a command line parses into.
 */
import { Command, Option } from 'commander';
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import type { OrderJournal } from '../journal/order-journal.js';
import type { CreateRequest } from '../ordering/create.js';
import { confirmOn } from '../output/prompt.js';
import { orderRows, quoteDetails } from '../output/views.js';
import { refuseContractReceiver } from '../tron/receiver.js';
import type { TronNode } from '../tron/tron-node.js';
import { clientRequestId, positiveTrxAmount, rentalArguments, trxAmount } from './arguments.js';
import { waitTimeoutOption } from './duration-arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface CreateCommandOptions extends CommandServices {
  request: CreateRequest;
  /** --wait: follow the order for at most this long. */
  waitSeconds: number | undefined;
  /** --dry-run: show the request instead of sending it. */
  dryRun: boolean;
  /** The TRON node to ask whether the receiver is a contract, when one is configured; else undefined. */
  receiverNode: () => Promise<TronNode | undefined>;
}

interface Parsed {
  energy: number;
  hours: number;
  expectedTotal?: string;
  maxTotal?: string;
  yes?: boolean;
  clientRequestId?: string;
  wait?: boolean;
  dryRun?: boolean;
  waitTimeout: number;
}

export function orderCreateCommand(
  ctx: Context,
  run: (options: CreateCommandOptions) => Promise<void> = orderCreateRun,
): Command {
  return rentalArguments(new Command('create'))
    .summary('rent energy for an address')
    .description('rent energy for an address (asks for a quote first unless --expected-total is given)')
    .addOption(
      new Option('--expected-total <trx>', 'pay exactly this total; consent without a prompt').argParser(
        positiveTrxAmount,
      ),
    )
    .addOption(new Option('--max-total <trx>', 'refuse (exit 5) when the quote is above this').argParser(trxAmount))
    .option('-y, --yes', 'consent to the quoted price without a prompt')
    .addOption(new Option('--client-request-id <id>', 'idempotency key; default a new UUID').argParser(clientRequestId))
    .option('--dry-run', 'check, quote and ask as usual, then show the signed request instead of sending it')
    .option('--wait', 'follow the order until it is final (exit 8 if it fails, 10 if --wait-timeout runs out)')
    .addOption(waitTimeoutOption())
    .action((address: string, parsed: Parsed) =>
      run({
        request: {
          address,
          energy: parsed.energy,
          hours: parsed.hours,
          expectedTotal: parsed.expectedTotal,
          maxTotal: parsed.maxTotal,
          yes: parsed.yes === true,
          clientRequestId: parsed.clientRequestId,
        },
        waitSeconds: parsed.wait === true ? parsed.waitTimeout : undefined,
        dryRun: parsed.dryRun === true,
        receiverNode: () => ctx.configuredTronNode(),
        ...ctx.services(),
      }),
    );
}

export async function orderCreateRun(opts: CreateCommandOptions): Promise<void> {
  // The client first: its credential checks say what is wrong before the journal asks for credentials.
  const client = await opts.client();
  // No rental can reach a contract: refused before any quote (the node is asked only when one is configured).
  await refuseContractReceiver(opts.request.address, opts.receiverNode, (line) => opts.printer.note(line));
  const journal = await opts.journal();
  if (opts.dryRun) return dryRun(opts, client, journal);
  const [{ createOrder }, { followToFinal }] = await Promise.all([
    import('../ordering/create.js'),
    import('../ordering/follow-order.js'),
  ]);
  const { printer } = opts;
  const note = (line: string) => printer.note(line);
  const recoverCommand = (id: string) => opts.invocation('order', 'recover', id);
  const deps = { client, journal, confirm: confirmOn(opts.terminal), quoteDetails, note, recoverCommand };
  const { order } = await createOrder(deps, opts.request);
  const print = (shown: Order) => (printer.jsonMode ? printer.json(shown) : printer.keyValue(orderRows(shown)));
  if (opts.waitSeconds === undefined) return print(order);
  const follower = {
    client,
    print,
    progress: printer.jsonMode && !opts.verbose ? undefined : note,
    waitCommand: (id: string) => opts.invocation('order', 'wait', id),
  };
  await followToFinal(follower, order, opts.waitSeconds);
}

/** --dry-run: the request that would be sent, on stdout; nothing sent to the order endpoint, nothing journaled. */
async function dryRun(opts: CreateCommandOptions, client: EnergyClient, journal: OrderJournal): Promise<void> {
  const [{ previewOrder }, { previewLines }] = await Promise.all([
    import('../ordering/create.js'),
    import('../output/request-preview.js'),
  ]);
  const { printer } = opts;
  const deps = {
    client,
    journal,
    confirm: confirmOn(opts.terminal),
    quoteDetails,
    note: (line: string) => printer.note(line),
  };
  const preview = await previewOrder({ ...deps, recoverCommand: () => '' }, opts.request, (body) =>
    client.transport.preview({ method: 'POST', path: '/v1/energy/orders', body }),
  );
  await (printer.jsonMode ? printer.json(preview) : printer.write(previewLines(preview)));
  printer.note('energy: dry run: nothing was sent to the order endpoint and nothing was journaled');
}
