/**
 * `order create` run again after an interrupt (a SIGTERM, a kill, a retry loop in a script): the earlier
 * run journaled its request and never learned whether it was placed. Without `--client-request-id` the
 * new run would choose a new id and place a second order beside it. So the earlier request is settled
 * first, by resending its exact bytes (the server answers the order it holds, or places it once):
 * - the order it placed, still running: that is this run's order (no second one);
 * - placed now (201): the same;
 * - refused (a 4xx: it placed nothing), or the order it placed has ended (final, or failed): the earlier
 *   request is settled and this run places its own order as usual;
 * - its outcome still unknown: the run stops, naming `energy order recover <id>`, and places nothing.
 * Only records an `order create` made with its own UUID id, for this API and key, for the same address,
 * energy and hours: a fixed `--client-request-id` re-run resends by id already, and a new one is how to ask
 * for another order.
 */
import type { CreatedOrder, EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { ApiError } from '../domain/errors.js';
import { ConflictError } from '../domain/cli-errors.js';
import { UUID_TEXT } from '../domain/patterns.js';
import { formatIsoTime } from '../domain/text-forms.js';
import type { OrderJournal } from '../journal/order-journal.js';
import { recordedOrder, type JournalRecord } from '../journal/record.js';
import { requireConsent, type Confirm } from './consent.js';
import { sendJournaled } from './send-journaled.js';

export interface InterruptedDeps {
  client: Pick<EnergyClient, 'sendOrderBody'>;
  journal: Pick<OrderJournal, 'pending' | 'settle' | 'markUncertain'>;
  /** Asks for consent to resend; undefined where nobody can answer. */
  confirm: Confirm | undefined;
  note: (line: string) => void;
  recoverCommand: (clientRequestId: string) => string;
}

/** What `order create` asks for, as far as matching an earlier request goes. */
export interface Rental {
  address: string;
  energy: number;
  hours: number;
  yes: boolean;
  expectedTotal?: string | undefined;
  maxTotal?: string | undefined;
}

/** Pending records of this API and key that an earlier `order create` sent for this same rental, oldest first. */
export async function interruptedRecords(
  journal: Pick<OrderJournal, 'pending'>,
  rental: Rental,
): Promise<JournalRecord[]> {
  return (await journal.pending()).filter((record) => {
    if (!UUID_TEXT.test(record.client_request_id)) return false;
    const sent = recordedOrder(record);
    return sent.address === rental.address && sent.energy === rental.energy && sent.duration_hours === rental.hours;
  });
}

/** Settles every such record; returns the order one of them stands for, if it is this run's order. */
export async function settleInterrupted(deps: InterruptedDeps, rental: Rental): Promise<CreatedOrder | undefined> {
  for (const record of await interruptedRecords(deps.journal, rental)) {
    const id = record.client_request_id;
    deps.note(
      `energy: an earlier run sent this same order at ${formatIsoTime(record.journaled_at)} (client_request_id ${id}) and never learned whether it was placed; resending that request first, so that it cannot be placed twice`,
    );
    await consentToSettle(deps, record, rental);
    let result: CreatedOrder;
    try {
      result = await sendJournaled(deps, record);
    } catch (error) {
      // A definite refusal placed nothing (the journal says so now): this run orders afresh.
      if (error instanceof ApiError && !error.outcomeUncertain && error.status < 500) {
        deps.note(`energy: the earlier request was refused (HTTP ${error.status}): it placed nothing`);
        continue;
      }
      throw error;
    }
    if (result.created || !ended(result.order)) {
      deps.note(
        result.created
          ? `energy: the earlier request had not been placed; it is placed now (order ${result.order.id}): no other order is placed`
          : `energy: the earlier run placed order ${result.order.id}: showing it, and placing no other`,
      );
      return result;
    }
    deps.note(`energy: the earlier run's order ${result.order.id} has ended; placing a new one`);
  }
  return undefined;
}

/** Its lifecycle is over (a failure object alone does not end it: the order may still deliver). */
function ended(order: Order): boolean {
  return order.lifecycle_final;
}

/**
 * Resending may place the order now, at the journaled total: consent as for any order. `--expected-total`
 * consents to its own total only, so a journaled total above it (or above `--max-total`) is not resent.
 */
async function consentToSettle(deps: InterruptedDeps, record: JournalRecord, rental: Rental): Promise<void> {
  const id = record.client_request_id;
  const total = recordedOrder(record).expected_total_trx;
  const hint = `settle it with: ${deps.recoverCommand(id)}, or give a new --client-request-id to ask for another order`;
  const { compareAmounts } = await import('../domain/money.js');
  for (const [limit, option] of [
    [rental.maxTotal, '--max-total'],
    [rental.expectedTotal, '--expected-total'],
  ] as const) {
    if (limit !== undefined && compareAmounts(total, limit) > 0)
      throw new ConflictError(
        `an earlier run sent this same order (client_request_id ${id}) for ${total} TRX, above ${option} ${limit}, and never learned whether it was placed: nothing was sent`,
        { hint },
      );
  }
  await requireConsent({
    confirm: deps.confirm,
    given: rental.yes || rental.expectedTotal !== undefined,
    details: [
      `An earlier run sent this order (${formatIsoTime(record.journaled_at)}) and never learned whether it was placed.`,
    ],
    question: `Resend it first? It returns that order if it exists, or places it now for ${total} TRX.`,
    refusal: `an earlier run sent this same order (client_request_id ${id}) and never learned whether it was placed: not resending it (${total} TRX) without consent, and not placing a second order beside it`,
    hint: `add --yes to resend it first; or ${hint}`,
    note: deps.note,
  });
}
