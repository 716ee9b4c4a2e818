/**
 * `energy order recover [client_request_id]`: picks the pending journal records to settle and hands them to
 * the flow (ordering/recover.ts), which resends their exact bytes (never a second order); prints what
 * became of each.
 */
import { Argument, Command } from 'commander';
import { UsageError } from '../domain/errors.js';
import { ConflictError } from '../domain/cli-errors.js';
import { UnreadableRecordError } from '../domain/journal-errors.js';
import type { OrderJournal } from '../journal/order-journal.js';
import type { JournalRecord } from '../journal/record.js';
import { recoverTable } from '../output/pending-views.js';
import { confirmOn } from '../output/prompt.js';
import { clientRequestId } from './arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface RecoverCommandOptions extends Pick<
  CommandServices,
  'client' | 'journal' | 'terminal' | 'printer' | 'invocation'
> {
  /** A client_request_id to settle alone, or undefined for every pending request of this API and key. */
  id: string | undefined;
  yes: boolean;
}

export function orderRecoverCommand(
  ctx: Context,
  run: (options: RecoverCommandOptions) => Promise<void> = orderRecoverRun,
): Command {
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
    .action((id: string | undefined, parsed: { yes?: boolean }) =>
      run({ id, yes: parsed.yes === true, ...ctx.services() }),
    );
}

export async function orderRecoverRun(opts: RecoverCommandOptions): Promise<void> {
  const { printer, id } = opts;
  const client = await opts.client();
  const journal = await opts.journal();
  const records = id === undefined ? await journal.pending() : await selectOne(journal, id);
  // Damaged or newer-version records of this API and key: each may stand for an order, so each is named.
  const unreadable = id === undefined ? await journal.unreadablePending() : [];
  for (const file of unreadable)
    printer.note(`energy: cannot recover ${file.path}: ${file.reason}; its order may or may not exist`);
  const unreadableFailure =
    unreadable.length === 0
      ? undefined
      : new ConflictError(`${unreadable.length} journal record(s) unreadable: look at them (the paths above)`, {
          hint: '`energy order list` shows whether their orders exist; remove a file once its order is settled',
        });
  const elsewhere = (await journal.allPending()).filter((record) => !journal.covers(record)).length;
  if (id === undefined && elsewhere > 0) {
    printer.note(
      `energy: ${elsewhere} pending request(s) went to another API or key; recover them with the --profile or --base-url they were sent with`,
    );
  }
  if (records.length === 0) {
    if (printer.jsonMode) await printer.json({ items: [] });
    else if (unreadableFailure === undefined) printer.note('energy: nothing to recover');
    if (unreadableFailure !== undefined) throw unreadableFailure;
    return;
  }
  const { recoverRecords } = await import('../ordering/recover.js');
  const note = (line: string) => printer.note(line);
  const recoverCommand = (requestId: string) => opts.invocation('order', 'recover', requestId);
  const deps = { client, journal, confirm: confirmOn(opts.terminal), note, recoverCommand };
  const { items, failure } = await recoverRecords(deps, records, opts.yes);
  await (printer.jsonMode ? printer.json({ items }) : printer.table(recoverTable(items)));
  if (failure !== undefined) throw failure;
  if (unreadableFailure !== undefined) throw unreadableFailure;
}

async function selectOne(journal: OrderJournal, id: string): Promise<JournalRecord[]> {
  const record = await journal.find(id);
  const unreadable = record === undefined ? await journal.unreadableFor(id) : undefined;
  if (unreadable !== undefined) throw new UnreadableRecordError(id, unreadable.path, unreadable.reason);
  if (record === undefined) throw new UsageError(`no journal record for client_request_id ${id} with this API and key`);
  return [record];
}
