/**
 * `energy order recover [client_request_id]`: resends each pending journal record's exact bytes and records
 * what the server says. A request the server committed comes back as its order (200); one it never
 * committed is placed now, once, so that needs consent as `order create` does. The newest orders are
 * looked through first, so that requests already committed are settled without a question.
 */
import { Argument, Command } from 'commander';
import type { Order } from '../client/types.js';
import { CliError, ExitCode, UsageError } from '../domain/errors.js';
import type { JournalRecord } from '../journal/record.js';
import { clientRequestId } from './arguments.js';
import type { Context } from './context.js';

interface RecoverItem {
  client_request_id: string;
  outcome: 'created' | 'existing' | 'refused' | 'unknown';
  order: Order | null;
  error: { exit_code: number; message: string } | null;
}

export function orderRecoverCommand(ctx: Context): Command {
  return new Command('recover')
    .summary('settle pending requests (no second order)')
    .description('settle order requests whose outcome is unknown: resend their exact bytes (never a second order)')
    .addArgument(
      new Argument(
        '[id]',
        'a client_request_id: settle only this one (default: every pending request of this API and key)',
      ).argParser(clientRequestId),
    )
    .option('-y, --yes', 'consent to placing the requests the server never received, without a prompt')
    .action(async (id: string | undefined, options: { yes?: boolean }) => {
      const client = await ctx.client();
      const journal = await ctx.journal();
      const records = id === undefined ? journal.pending() : selectOne(journal.find(id), id);
      const elsewhere = journal.allPending().filter((record) => !journal.covers(record)).length;
      if (id === undefined && elsewhere > 0) {
        ctx.printer.note(
          `energy: ${elsewhere} pending request(s) went to another API or key; recover them with the --profile or --base-url they were sent with`,
        );
      }
      if (records.length === 0) {
        if (ctx.printer.jsonMode) await ctx.printer.json({ items: [] });
        else ctx.printer.note('energy: nothing to recover');
        return;
      }
      const [{ findRecentOrders }, { sendJournaled }] = await Promise.all([
        import('../ordering/find-recent.js'),
        import('../ordering/send-journaled.js'),
      ]);
      const oldest = Math.min(...records.map((record) => Date.parse(record.journaled_at)));
      const committed = await findRecentOrders(
        client,
        new Set(records.map((record) => record.client_request_id)),
        oldest,
      );
      await consentForUncommitted(
        ctx,
        records.filter((record) => !committed.has(record.client_request_id)),
        options.yes === true,
      );
      const sender = {
        client,
        journal,
        recoverCommand: (requestId: string) => ctx.invocation('order', 'recover', requestId),
      };
      const items: RecoverItem[] = [];
      const failures: CliError[] = [];
      for (const record of records) {
        try {
          const { order, created } = await sendJournaled(sender, record);
          items.push({
            client_request_id: record.client_request_id,
            outcome: created ? 'created' : 'existing',
            order,
            error: null,
          });
        } catch (error) {
          if (!(error instanceof CliError)) throw error;
          failures.push(error);
          const outcome = journal.find(record.client_request_id)?.outcome === null ? 'unknown' : 'refused';
          items.push({
            client_request_id: record.client_request_id,
            outcome,
            order: null,
            error: { exit_code: error.exitCode, message: error.message },
          });
        }
      }
      await printItems(ctx, items);
      if (failures.length === 1 && records.length === 1) throw failures[0];
      if (failures.length > 0) {
        throw new CliError(
          `${failures.length} of ${records.length} requests could not be settled (see above)`,
          ExitCode.someFailed,
        );
      }
    });
}

function selectOne(record: JournalRecord | undefined, id: string): JournalRecord[] {
  if (record === undefined) throw new UsageError(`no journal record for client_request_id ${id} with this API and key`);
  return [record];
}

/** Placing what the server never received spends money: show it, and ask as `order create` does. */
async function consentForUncommitted(ctx: Context, uncommitted: JournalRecord[], yes: boolean): Promise<void> {
  if (uncommitted.length === 0) return;
  const [{ requireConsent }, { recordedOrder }, { sumAmounts }] = await Promise.all([
    import('../ordering/consent.js'),
    import('../journal/record.js'),
    import('../domain/money.js'),
  ]);
  const orders = uncommitted.map((record) => ({ record, order: recordedOrder(record) }));
  const total = sumAmounts(orders.map(({ order }) => order.expected_total_trx));
  const n = uncommitted.length === 1 ? '1 request' : `${uncommitted.length} requests`;
  // Said before anything is sent, with or without a prompt: this may spend.
  ctx.printer.note(
    `energy: the server's newest orders do not show ${n}; resending places each one that it never received`,
  );
  await requireConsent({
    terminal: ctx.terminal,
    given: yes,
    details: [
      ...orders.map(
        ({ record, order }) =>
          `  ${record.client_request_id}  ${order.address}  ${order.energy} energy  ${order.duration_hours} h  ${order.expected_total_trx} TRX`,
      ),
    ],
    question: `Resend ${n}, at most ${total} TRX in all?`,
    refusal: `not resending ${n} (up to ${total} TRX) that may place orders now, without consent`,
    hint: 'add --yes to resend them; `energy order pending` lists them',
    note: (line) => ctx.printer.note(line),
  });
}

async function printItems(ctx: Context, items: RecoverItem[]): Promise<void> {
  if (ctx.printer.jsonMode) return ctx.printer.json({ items });
  await ctx.printer.table({
    head: ['CLIENT_REQUEST_ID', 'OUTCOME', 'ORDER', 'DETAIL'],
    widths: [20, 8, 36, 20],
    rows: items.map((item) => [
      item.client_request_id,
      item.outcome,
      item.order?.id ?? '',
      item.order === null ? (item.error?.message ?? '') : `${item.order.status}, ${item.order.total_trx} TRX`,
    ]),
  });
}
