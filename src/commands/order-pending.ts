/**
 * `energy order pending`: order requests this machine sent and never heard back about, from the journal.
 * Works without credentials (it reads only local state); with them, it marks which records the current
 * profile can settle.
 */
import { Command } from 'commander';
import type { Journal } from '../journal/journal.js';
import type { JournalRecord } from '../journal/record.js';
import type { Context } from './context.js';

const COLUMNS = [
  'CLIENT_REQUEST_ID',
  'JOURNALED',
  'ADDRESS',
  'ENERGY',
  'HOURS',
  'TOTAL TRX',
  'API',
  'LAST ERROR',
] as const;
const WIDTHS = [20, 24, 34, 9, 5, 14, 24, 20] as const;

export function orderPendingCommand(ctx: Context): Command {
  return new Command('pending')
    .summary('order requests whose outcome is unknown')
    .description(
      'list order requests sent from this machine whose outcome is unknown (settle them with `order recover`)',
    )
    .action(async () => {
      const [{ pendingRecordsIn }, { recordedOrder }, { stateDir }] = await Promise.all([
        import('../journal/journal.js'),
        import('../journal/record.js'),
        import('../journal/state-dir.js'),
      ]);
      const journal = await ctx.journal().catch(() => undefined);
      const records = pendingRecordsIn(stateDir(ctx.terminal.env));
      const items = records.map((record) => ({
        record,
        order: recordedOrder(record),
        here: settleableHere(journal, record),
      }));
      if (ctx.printer.jsonMode) {
        await ctx.printer.json({
          items: items.map(({ record, order, here }) => ({
            client_request_id: record.client_request_id,
            api: record.origin,
            address: order.address,
            energy: order.energy,
            duration_hours: order.duration_hours,
            expected_total_trx: order.expected_total_trx,
            journaled_at: record.journaled_at,
            last_error: record.last_error,
            settleable_here: here,
          })),
        });
        return;
      }
      if (items.length === 0) {
        ctx.printer.note('energy: no order request without a known outcome');
        return;
      }
      await ctx.printer.table({
        head: COLUMNS,
        widths: WIDTHS,
        rows: items.map(({ record, order }) => [
          record.client_request_id,
          record.journaled_at,
          order.address,
          String(order.energy),
          String(order.duration_hours),
          order.expected_total_trx,
          record.origin,
          record.last_error ?? '(none: the run ended while sending)',
        ]),
      });
      const elsewhere = items.filter(({ here }) => here === false).length;
      ctx.printer.note(`settle them with: ${ctx.invocation('order', 'recover')}`);
      if (elsewhere > 0)
        ctx.printer.note(
          `${elsewhere} of them went to another API or key: recover those with the --profile or --base-url they were sent with`,
        );
    });
}

/** true or false when the current profile's API and key are known, null when they are not. */
function settleableHere(journal: Journal | undefined, record: JournalRecord): boolean | null {
  return journal === undefined ? null : journal.covers(record);
}
