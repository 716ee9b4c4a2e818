/**
 * `ensure`'s own order requests whose outcome this machine never learned (a 5xx after the retries, a
 * reset, a kill): resent byte for byte by the next run that looks at their address, before it counts what
 * is in flight. Their id is derived (need-id.ts), so the server places each once, or answers with the
 * order it already has; either way the order then shows in the list and anchors the need. Counted in
 * flight instead, run after run, such a request would starve the address until someone settled it by
 * hand. The resend needs no new consent: the run that first sent it had it, for these bytes and this price.
 * Under --max-spend it is held first, as any request is (it may place its order now): where the ledger has
 * no room for it, it is not resent, and stays pending.
 */
import { AuthError, CliError } from '../domain/errors.js';
import { isInterruption } from '../domain/cli-errors.js';
import { recordedOrder } from '../journal/record.js';
import { sendJournaled, type OrderSender } from '../ordering/send-journaled.js';
import type { ServerClock } from '../ordering/server-clock.js';
import type { EnsureJournal, SpendCeilingRule } from './ensure-types.js';
import { isNeedId } from './need-id.js';

export interface OwnPendingSender extends OrderSender {
  journal: Pick<EnsureJournal, 'pending' | 'settle' | 'markUncertain' | 'find'>;
}

/** --max-spend, where given: each resend is held under the ceiling first (it may place an order now). */
export interface ResendCeiling {
  rule: SpendCeilingRule;
  clock: ServerClock;
}

/** Resends each of `ensure`'s pending requests to one of `addresses`, oldest first; says what became of each. */
export async function resendOwnPending(
  sender: OwnPendingSender,
  addresses: ReadonlySet<string>,
  note: (line: string) => void,
  ceiling?: ResendCeiling,
): Promise<void> {
  // The decision's own addresses' records only (indexed in PostgreSQL), not the account's.
  const own = (await sender.journal.pending([...addresses])).filter(
    (record) => isNeedId(record.client_request_id) && addresses.has(recordedOrder(record).address),
  );
  for (const record of own) {
    const { address } = recordedOrder(record);
    const what = `ensure's earlier request ${record.client_request_id} for ${address}, whose outcome was unknown,`;
    const hold = await ceiling?.rule.holdResend(record, ceiling.clock);
    if (hold instanceof CliError) {
      note(`energy: ${what} was not sent again: ${hold.message} (it stays pending, counted in flight)`);
      continue;
    }
    try {
      const { order, created } = await sendJournaled(sender, record);
      await hold?.ordered(order);
      note(`energy: ${what} was sent again: ${created ? `placed now, order ${order.id}` : `order ${order.id} had it`}`);
    } catch (error) {
      await hold?.failed(await sender.journal.find(record.client_request_id));
      // Credentials and a stop end the run; anything else leaves the record as it is (counted in flight).
      if (!(error instanceof CliError) || error instanceof AuthError || isInterruption(error)) throw error;
      note(`energy: ${what} was sent again and failed: ${error.message}`);
    }
  }
}
