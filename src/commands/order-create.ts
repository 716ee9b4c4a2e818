/**
 * `energy order create`: local checks, a quote unless the price is given, consent, one order with a stable
 * client_request_id (so that retries can never place it twice), and optionally waiting for delivery.
 */
import { Command, Option } from 'commander';
import type { EnergyClient } from '../client/client.js';
import type { CreateOrderRequest, Order } from '../client/types.js';
import { waitForDelivery } from '../client/wait-for-order.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { canPrompt, confirm } from '../output/prompt.js';
import { printable } from '../printable.js';
import { orderRows, quoteRows } from '../output/views.js';
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
    .description('rent energy for an address (asks for a quote first unless --expected-total is given)')
    .addOption(new Option('--expected-total <trx>', 'pay exactly this total; consent without a prompt').argParser(trxAmount))
    .addOption(new Option('--max-total <trx>', 'refuse (exit 5) when the quote is above this').argParser(trxAmount))
    .option('-y, --yes', 'consent to the quoted price without a prompt')
    .addOption(new Option('--client-request-id <id>', 'idempotency key; default a new UUID').argParser(clientRequestId))
    .option('--wait', 'follow the order until its delivery is final (exit 8 if it fails)')
    .addOption(new Option('--wait-timeout <seconds>', 'give up waiting after this long').argParser(seconds).default(600))
    .action(async (address: string, options: CreateOptions) => {
      const client = await ctx.client();
      const expectedTotal = await agreeOnPrice(ctx, client, address, options);
      const requestId = options.clientRequestId ?? process.getBuiltinModule('node:crypto').randomUUID();
      const request = {
        client_request_id: requestId,
        address,
        energy: options.energy,
        duration_hours: options.hours,
        expected_total_trx: expectedTotal,
      };
      let result;
      try {
        result = await client.createOrder(request);
      } catch (error) {
        throw explainUnknownOutcome(error, request, retryCommand(ctx, request));
      }
      if (!result.created) {
        ctx.printer.note(`energy: the server answered 200 (not 201 Created) with the order for client_request_id ${requestId}; showing it`);
      }
      const print = (order: Order) => (ctx.printer.jsonMode ? ctx.printer.json(order) : ctx.printer.keyValue(orderRows(order)));
      if (options.wait !== true) {
        await print(result.order);
        return;
      }
      const order = await follow(ctx, client, result.order, options.waitTimeout, print);
      await print(order);
      if (order.failure !== null) {
        throw new CliError(`order ${order.id} failed: ${printable(order.failure.code, 60)}: ${printable(order.failure.message)}`, ExitCode.orderFailed);
      }
    });
}

/** Returns the total to send as expected_total_trx once the user has agreed to it. */
async function agreeOnPrice(ctx: Context, client: EnergyClient, address: string, options: CreateOptions): Promise<string> {
  if (options.expectedTotal !== undefined) {
    await refuseAboveMax(options.expectedTotal, options.maxTotal);
    return options.expectedTotal;
  }
  const quote = await client.quote({ address, energy: options.energy, duration_hours: options.hours });
  await refuseAboveMax(quote.total_trx, options.maxTotal);
  if (options.yes === true) return quote.total_trx;
  if (!canPrompt(ctx.terminal)) {
    throw new UsageError(`not placing an order for ${quote.total_trx} TRX without consent`, {
      hint: `add --yes to accept the quoted price, or --expected-total ${quote.total_trx} to pay exactly that`,
    });
  }
  ctx.printer.note('Quote:');
  for (const [label, value] of quoteRows(quote)) ctx.printer.note(`  ${label.padEnd(12)}  ${value}`);
  if (!(await confirm(ctx.terminal, `Place this order for ${quote.total_trx} TRX?`))) {
    throw new UsageError('order cancelled: nothing was placed');
  }
  return quote.total_trx;
}

async function refuseAboveMax(total: string, maxTotal: string | undefined): Promise<void> {
  if (maxTotal === undefined) return;
  const { compareAmounts } = await import('../money.js');
  if (compareAmounts(total, maxTotal) > 0) {
    throw new CliError(`the total ${total} TRX is above --max-total ${maxTotal}: no order was placed`, ExitCode.conflict);
  }
}

/**
 * When the last attempt failed on the network or a 5xx, the order may exist: say how to ask again safely
 * (same client_request_id and price, so the server returns the existing order instead of a second one).
 */
function explainUnknownOutcome(error: unknown, request: CreateOrderRequest, retry: string): unknown {
  if (!(error instanceof CliError) || !error.outcomeUncertain) return error;
  return new CliError(
    `${error.message}; the order with client_request_id ${request.client_request_id} may or may not have been placed`,
    error.exitCode,
    { cause: error, hint: `retry safely (it cannot place a second order) with: ${retry}` },
  );
}

/**
 * The same order again: same client_request_id and price, and the same profile and base URL when they
 * were given as options, so that it reaches the account that may already hold the order.
 */
function retryCommand(ctx: Context, request: CreateOrderRequest): string {
  const globals = [
    ...(ctx.globals.profile === undefined ? [] : ['--profile', ctx.globals.profile]),
    ...(ctx.globals.baseUrl === undefined ? [] : ['--base-url', ctx.globals.baseUrl]),
  ];
  return [
    'energy',
    ...globals,
    'order create',
    request.address,
    `--energy ${request.energy} --hours ${request.duration_hours}`,
    `--expected-total ${request.expected_total_trx} --client-request-id ${request.client_request_id}`,
  ].join(' ');
}

/**
 * Waits for delivery. The order exists by now: if following it fails, print the last reading and say so,
 * so that no script mistakes the failure for "nothing was placed" and orders again.
 */
async function follow(ctx: Context, client: EnergyClient, order: Order, timeoutSeconds: number, print: (order: Order) => Promise<void>): Promise<Order> {
  const quiet = ctx.printer.jsonMode && ctx.globals.verbose !== true;
  if (!quiet) ctx.printer.note(`energy: order ${order.id} is ${printable(order.status, 40)}; waiting for delivery…`);
  let last = order;
  try {
    return await waitForDelivery(client, order, {
      intervalMs: 1000,
      timeoutMs: timeoutSeconds * 1000,
      onChange: (next) => {
        last = next;
        if (!quiet) ctx.printer.note(`energy: order ${next.id} is ${printable(next.status, 40)}`);
      },
    });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    await print(last);
    throw new CliError(`order ${last.id} was placed (client_request_id ${last.client_request_id}), but following it failed: ${error.message}`, error.exitCode, {
      cause: error,
      hint: `do not order again; follow it with: energy order get ${last.id}`,
    });
  }
}
