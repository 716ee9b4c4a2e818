/**
 * `energy order pending`: order requests this machine sent and never heard back about, from the journal.
 * Works without credentials (it reads only local state); with them, it marks which records the current
 * profile can settle.
 */
import { Command } from 'commander';
import { serverNowMs } from '../domain/server-now.js';
import type { JournalRecord } from '../journal/record.js';
import { profilesFor, recoverAdvice, type ProfileReader } from '../ordering/recover-advice.js';
import { pendingJson, pendingTable, type PendingItem } from '../output/pending-views.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface PendingCommandOptions extends Pick<CommandServices, 'journal' | 'state' | 'printer' | 'invocation'> {
  /** The profiles, to say which one settles a record this profile cannot. */
  profiles: ProfileReader;
  /** Milliseconds on the process's server clock (the host's when no API client was made: none is needed). */
  nowMs: () => number;
}

export function orderPendingCommand(
  ctx: Context,
  run: (options: PendingCommandOptions) => Promise<void> = orderPendingRun,
): Command {
  return new Command('pending')
    .summary('order requests whose outcome is unknown')
    .description(
      'list order requests sent from this machine whose outcome is unknown (settle them with `order recover`)',
    )
    .action(() => run({ profiles: ctx.store, nowMs: serverNowMs, ...ctx.services() }));
}

export async function orderPendingRun(opts: PendingCommandOptions): Promise<void> {
  const { printer } = opts;
  const { pendingEndsAtMs, recordedOrder } = await import('../journal/record.js');
  const now = opts.nowMs();
  const store = await opts.state();
  const journal = await opts.journal().catch(() => undefined);
  const { records, unreadable } = await store.allPending();
  const items: PendingItem[] = records.map((record) => ({
    record,
    order: recordedOrder(record),
    // true or false when the current profile's API and key are known, null when they are not.
    here: journal === undefined ? null : journal.covers(record),
    ageSeconds: Math.max(0, Math.floor((now - Date.parse(record.journaled_at)) / 1000)),
    pastTerm: now > pendingEndsAtMs(record),
  }));
  if (printer.jsonMode) return printer.json({ items: pendingJson(items), unreadable });
  // Each may stand for a placed order: named with its path, never skipped in silence.
  for (const file of unreadable)
    printer.note(`energy: unreadable journal record ${file.path}: ${file.reason}; its order may or may not exist`);
  if (items.length === 0) {
    if (unreadable.length > 0) return;
    const from = store.kind === 'postgresql' ? 'from the hosts sharing the state store' : 'from this machine';
    printer.note(`energy: nothing to settle: every order request sent ${from} has its outcome`);
    return;
  }
  // Past its term it no longer counts in flight for `ensure`: said, so that an operator settles or drops it.
  for (const { record, ageSeconds, pastTerm } of items)
    if (pastTerm)
      printer.note(
        `energy: ${record.client_request_id} was journaled ${Math.floor(ageSeconds / 3600)} h ago, past its term: ensure no longer counts it in flight; settle it with \`energy order recover\``,
      );
  await printer.table(pendingTable(items));
  const elsewhere: JournalRecord[] = items.filter(({ here }) => here === false).map(({ record }) => record);
  const advice = recoverAdvice(
    items.map(({ here }) => here),
    opts.invocation('order', 'recover'),
    await profilesFor(opts.profiles, elsewhere),
  );
  printer.note(advice);
}
