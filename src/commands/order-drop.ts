/**
 * `energy order drop <client_request_id>`: takes out of the journal a pending request that the server never
 * received (issue 44: a request lost on its way, by a reboot, whose id is never used again). Checked first:
 * no order on the account carries its client_request_id (the list is read back to a day before the record
 * was journaled); one that does is refused, and `order recover` settles it instead. The record is settled
 * as not sent, in the folder and in PostgreSQL alike (the journal's contract), never deleted unread.
 */
import { Argument, Command } from 'commander';
import { UsageError } from '../domain/errors.js';
import { ConflictError } from '../domain/cli-errors.js';
import { clientRequestId } from './arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

/** How far before its journaled_at the order list is read for the record's order (clocks differ). */
const SEARCH_SLACK_MS = 86_400_000;

export interface DropCommandOptions extends Pick<CommandServices, 'client' | 'journal' | 'printer' | 'invocation'> {
  /** The client_request_id of the pending record to drop. */
  id: string;
}

export function orderDropCommand(
  ctx: Context,
  run: (options: DropCommandOptions) => Promise<void> = orderDropRun,
): Command {
  return new Command('drop')
    .summary('drop a pending request the server never received')
    .description(
      'take a pending request out of the journal after checking that no order on the account carries its client_request_id (else settle it with `order recover`)',
    )
    .addArgument(new Argument('<id>', 'the client_request_id of the pending request').argParser(clientRequestId))
    .action((id: string) => run({ id, ...ctx.services() }));
}

export async function orderDropRun(opts: DropCommandOptions): Promise<void> {
  const { id, printer } = opts;
  const journal = await opts.journal();
  const record = await journal.find(id);
  if (record === undefined || record.outcome !== null)
    throw new UsageError(`no pending journal record for client_request_id ${id} with this API and key`);
  const [client, { scanRecentOrders }] = await Promise.all([opts.client(), import('../ordering/find-recent.js')]);
  let found: string | undefined;
  const since = Date.parse(record.journaled_at) - SEARCH_SLACK_MS;
  const scan = await scanRecentOrders(client, since, (order) => {
    if (order.client_request_id === id) found = order.id;
    return found !== undefined;
  });
  const hint = `settle it instead: ${opts.invocation('order', 'recover', id)}`;
  if (found !== undefined)
    throw new ConflictError(`order ${found} carries client_request_id ${id}: the server received it`, { hint });
  if (!scan.complete)
    throw new ConflictError(`the order list was not read back to a day before ${record.journaled_at}`, { hint });
  const reason = 'dropped by hand: no order on the account carries its client_request_id';
  await journal.settle(record, { kind: 'not-sent', reason });
  if (printer.jsonMode) await printer.json({ client_request_id: id, dropped: true });
  else printer.note(`energy: dropped ${id}: no order on the account carries it`);
}
