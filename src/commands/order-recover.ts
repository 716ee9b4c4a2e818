/**
 * `energy order recover [client_request_id]`: picks the pending journal records to settle and hands them to
 * the flow (ordering/recover.ts), which resends their exact bytes (never a second order); prints what
 * became of each.
 */
import { Argument, Command } from 'commander';
import { UsageError } from '../domain/errors.js';
import type { JournalRecord } from '../journal/record.js';
import type { RecoverItem } from '../ordering/recover.js';
import { clientRequestId } from './arguments.js';
import type { Context } from './context.js';

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
      const { recoverRecords } = await import('../ordering/recover.js');
      const { items, failure } = await recoverRecords(
        {
          client,
          journal,
          terminal: ctx.terminal,
          note: (line) => ctx.printer.note(line),
          recoverCommand: (requestId) => ctx.invocation('order', 'recover', requestId),
        },
        records,
        options.yes === true,
      );
      await printItems(ctx, items);
      if (failure !== undefined) throw failure;
    });
}

function selectOne(record: JournalRecord | undefined, id: string): JournalRecord[] {
  if (record === undefined) throw new UsageError(`no journal record for client_request_id ${id} with this API and key`);
  return [record];
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
