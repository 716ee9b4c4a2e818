/**
 * `energy order create`: local checks, a quote unless the price is given, consent, then one order whose
 * request is journaled before it leaves. A client_request_id already in the journal resends the journaled
 * bytes instead (no new quote), so a fixed-id cron job gets the same order back on every run.
 */
import { Command, Option } from 'commander';
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { TRON_SETTING_NAMES } from '../config/names.js';
import { CliError, ExitCode } from '../domain/errors.js';
import type { Journal } from '../journal/journal.js';
import type { JournalRecord } from '../journal/record.js';
import { orderRows, quoteRows } from '../output/views.js';
import { refuseContractReceiver } from '../tron/receiver.js';
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
    .option('--wait', 'follow the order until it is final (exit 8 if it fails)')
    .addOption(
      new Option('--wait-timeout <seconds>', 'give up waiting after this long').argParser(seconds).default(600),
    )
    .action(async (address: string, options: CreateOptions) => {
      const client = await ctx.client();
      // No rental can reach a contract: refused before any quote (the node is asked only when one is configured).
      await refuseContractReceiver(
        address,
        async () =>
          (await ctx.settings(TRON_SETTING_NAMES)).values['tron-node'].source === 'default'
            ? undefined
            : ctx.tronNode(),
        (line) => ctx.printer.note(line),
      );
      const journal = await ctx.journal();
      await journal.prune();
      const record = await recordToSend(ctx, client, journal, address, options);
      const [{ sendJournaled }, { followToFinal }] = await Promise.all([
        import('../ordering/send-journaled.js'),
        import('../ordering/follow-order.js'),
      ]);
      const sender = { client, journal, recoverCommand: (id: string) => ctx.invocation('order', 'recover', id) };
      const result = await sendJournaled(sender, record);
      if (!result.created)
        ctx.printer.note(
          `energy: the server answered 200 (not 201 Created) with the order for client_request_id ${record.client_request_id}; showing it`,
        );
      const print = (order: Order) =>
        ctx.printer.jsonMode ? ctx.printer.json(order) : ctx.printer.keyValue(orderRows(order));
      if (options.wait !== true) return print(result.order);
      const quiet = ctx.printer.jsonMode && ctx.globals.verbose !== true;
      await followToFinal(
        {
          client,
          print,
          progress: quiet ? undefined : (line) => ctx.printer.note(line),
          waitCommand: (id) => ctx.invocation('order', 'wait', id),
        },
        result.order,
        options.waitTimeout,
      );
    });
}

/**
 * The journal record to send: the one already journaled for this client_request_id (same bytes as
 * before), or a new one after a quote and consent. Records whose request was refused, or never left,
 * placed nothing: the id starts afresh.
 */
async function recordToSend(
  ctx: Context,
  client: EnergyClient,
  journal: Journal,
  address: string,
  options: CreateOptions,
): Promise<JournalRecord> {
  const { hasOrder, recordedOrder } = await import('../journal/record.js');
  const known = options.clientRequestId === undefined ? undefined : journal.find(options.clientRequestId);
  if (known !== undefined && (known.outcome === null || hasOrder(known))) {
    refuseOtherParameters(known, recordedOrder(known), address, options);
    if (!hasOrder(known)) await consentToResend(ctx, known, recordedOrder(known).expected_total_trx, options);
    ctx.printer.note(
      `energy: client_request_id ${known.client_request_id} was sent from this machine at ${known.journaled_at}; resending that same request (no new quote)`,
    );
    return known;
  }
  const expectedTotal = await agreeOnPrice(ctx, client, address, options);
  const { orderRequestBody } = await import('../client/client.js');
  const requestId = options.clientRequestId ?? process.getBuiltinModule('node:crypto').randomUUID();
  const body = orderRequestBody({
    client_request_id: requestId,
    address,
    energy: options.energy,
    duration_hours: options.hours,
    expected_total_trx: expectedTotal,
  });
  const { record, fresh } = await journal.begin(requestId, body);
  // Another run journaled this id a moment ago: send its bytes, so that both runs ask for one order.
  if (!fresh) refuseOtherParameters(record, recordedOrder(record), address, options);
  return record;
}

/** The same id for another address, energy or duration is a mistake to stop before anything is sent. */
function refuseOtherParameters(
  record: JournalRecord,
  sent: { address: string; energy: number; duration_hours: number },
  address: string,
  options: CreateOptions,
): void {
  if (sent.address === address && sent.energy === options.energy && sent.duration_hours === options.hours) return;
  throw new CliError(
    `client_request_id ${record.client_request_id} was already used from this machine for ${sent.address}, ${sent.energy} energy, ${sent.duration_hours} h: nothing was sent`,
    ExitCode.conflict,
    { hint: 'use a new --client-request-id for a different order' },
  );
}

/** A journaled request whose outcome is unknown may place the order now: it needs consent like a new one. */
async function consentToResend(
  ctx: Context,
  record: JournalRecord,
  total: string,
  options: CreateOptions,
): Promise<void> {
  const { refuseAboveMax, requireConsent } = await import('../ordering/consent.js');
  await refuseAboveMax(total, options.maxTotal, 'the journaled total');
  await requireConsent({
    terminal: ctx.terminal,
    given: options.yes === true || options.expectedTotal !== undefined,
    details: [`An earlier run sent this order (${record.journaled_at}) and never learned whether it was placed.`],
    question: `Resend it? It returns the order if it exists, or places it now for ${total} TRX.`,
    refusal: `not resending client_request_id ${record.client_request_id} (${total} TRX) without consent`,
    hint: 'add --yes to resend it',
    note: (line) => ctx.printer.note(line),
  });
}

/** Returns the total to send as expected_total_trx once the user has agreed to it. */
async function agreeOnPrice(
  ctx: Context,
  client: EnergyClient,
  address: string,
  options: CreateOptions,
): Promise<string> {
  const { refuseAboveMax, requireConsent } = await import('../ordering/consent.js');
  if (options.expectedTotal !== undefined) {
    await refuseAboveMax(options.expectedTotal, options.maxTotal);
    return options.expectedTotal;
  }
  const quote = await client.quote({ address, energy: options.energy, duration_hours: options.hours });
  await refuseAboveMax(quote.total_trx, options.maxTotal);
  await requireConsent({
    terminal: ctx.terminal,
    given: options.yes === true,
    details: ['Quote:', ...quoteRows(quote).map(([label, value]) => `  ${label.padEnd(12)}  ${value}`)],
    question: `Place this order for ${quote.total_trx} TRX?`,
    refusal: `not placing an order for ${quote.total_trx} TRX without consent`,
    hint: `add --yes to accept the quoted price, or --expected-total ${quote.total_trx} to pay exactly that`,
    note: (line) => ctx.printer.note(line),
  });
  return quote.total_trx;
}
