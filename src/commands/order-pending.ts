/**
 * `energy order pending`: order requests this machine sent and never heard back about, from the journal.
 * Works without credentials (it reads only local state); with them, it marks which records the current
 * profile can settle.
 */
import { Command } from 'commander';
import type { OrderJournal } from '../journal/order-journal.js';
import type { JournalRecord } from '../journal/record.js';
import type { Context } from './context.js';
import { serverNowMs } from '../domain/server-now.js';
import { profilesFor, recoverAdvice } from '../ordering/recover-advice.js';
import type { Column } from '../output/fit-table.js';
import { formatInteger, formatIsoTime } from '../output/format.js';
import { shortAddress, shortTime, shortUrl } from '../output/short-forms.js';

/**
 * In a pipe every column whole; on a narrow terminal the client id goes first (`order recover` settles them
 * all), then the time takes its short form, the last error is cut (and written whole on stderr), the API loses its scheme, the address
 * shortens, HOURS goes, and last the API is cut too.
 */
const COLUMNS: readonly Column[] = [
  { head: 'CLIENT_REQUEST_ID', width: 20, drop: 1 },
  { head: 'JOURNALED', width: 25, short: { step: 2, form: (cell) => shortTime(cell) } },
  { head: 'ADDRESS', width: 34, short: { step: 5, form: shortAddress } },
  { head: 'ENERGY', width: 9 },
  { head: 'HOURS', width: 5, drop: 6 },
  { head: 'TOTAL_TRX', width: 14 },
  { head: 'API', width: 24, short: { step: 4, form: shortUrl }, cut: 7 },
  { head: 'HERE', width: 4 },
  { head: 'LAST_ERROR', width: 20, cut: 3, spill: (cell, row) => `energy: ${row[0]}: last error: ${cell}` },
];

export function orderPendingCommand(ctx: Context): Command {
  return new Command('pending')
    .summary('order requests whose outcome is unknown')
    .description(
      'list order requests sent from this machine whose outcome is unknown (settle them with `order recover`)',
    )
    .action(async () => {
      const { pendingEndsAtMs, recordedOrder } = await import('../journal/record.js');
      // The process's server clock (the host's when no API client was made: this command needs none).
      const now = serverNowMs();
      const ageOf = (record: JournalRecord) => Math.max(0, Math.floor((now - Date.parse(record.journaled_at)) / 1000));
      const pastTerm = (record: JournalRecord) => now > pendingEndsAtMs(record);
      const store = await ctx.state();
      const journal = await ctx.journal().catch(() => undefined);
      const { records, unreadable } = await store.allPending();
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
            age_seconds: ageOf(record),
            past_term: pastTerm(record),
            last_error: record.last_error,
            settleable_here: here,
          })),
          unreadable,
        });
        return;
      }
      // Each may stand for a placed order: named with its path, never skipped in silence.
      for (const file of unreadable)
        ctx.printer.note(
          `energy: unreadable journal record ${file.path}: ${file.reason}; its order may or may not exist`,
        );
      if (items.length === 0) {
        if (unreadable.length > 0) return;
        const from = store.kind === 'postgresql' ? 'from the hosts sharing the state store' : 'from this machine';
        ctx.printer.note(`energy: nothing to settle: every order request sent ${from} has its outcome`);
        return;
      }
      // Past its term it no longer counts in flight for `ensure`: said, so that an operator settles or drops it.
      for (const { record } of items)
        if (pastTerm(record))
          ctx.printer.note(
            `energy: ${record.client_request_id} was journaled ${Math.floor(ageOf(record) / 3600)} h ago, past its term: ensure no longer counts it in flight; settle it with \`energy order recover\``,
          );
      await ctx.printer.table({
        columns: COLUMNS,
        rows: items.map(({ record, order, here }) => [
          record.client_request_id,
          formatIsoTime(record.journaled_at),
          order.address,
          formatInteger(order.energy),
          String(order.duration_hours),
          order.expected_total_trx,
          record.origin,
          here === null ? '?' : here ? 'yes' : 'no',
          record.last_error ?? '(none: the run ended while sending)',
        ]),
      });
      const elsewhere = items.filter(({ here }) => here === false).map(({ record }) => record);
      ctx.printer.note(
        recoverAdvice(
          items.map(({ here }) => here),
          ctx.invocation('order', 'recover'),
          await profilesFor(ctx.store, elsewhere),
        ),
      );
    });
}

/** true or false when the current profile's API and key are known, null when they are not. */
function settleableHere(journal: OrderJournal | undefined, record: JournalRecord): boolean | null {
  return journal === undefined ? null : journal.covers(record);
}
