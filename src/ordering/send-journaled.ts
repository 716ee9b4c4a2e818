/**
 * Sends a journaled order request and records what the server said. The one path by which this program
 * places orders (`order create`, `order recover`, and whatever buys on their behalf), so that every order
 * request is on disk before it leaves and no outcome goes unrecorded.
 */
import type { CreatedOrder, EnergyClient } from '../client/client.js';
import { ApiError, AuthError, CliError } from '../domain/errors.js';
import { InterruptedError, OrderOutcomeUnknownError } from '../domain/cli-errors.js';
import { JournalWriteError, OrderUnrecordedError } from '../domain/journal-errors.js';
import type { OrderJournal } from '../journal/order-journal.js';
import type { JournalRecord } from '../journal/record.js';

export interface OrderSender {
  client: Pick<EnergyClient, 'sendOrderBody'>;
  journal: Pick<OrderJournal, 'settle' | 'markUncertain'>;
  /** The command line that settles a record, e.g. `energy --profile prod order recover <id>`. */
  recoverCommand: (clientRequestId: string) => string;
}

/** Sends the record's exact bytes; settles the record, or leaves it pending when the outcome is unknown. */
export async function sendJournaled(sender: OrderSender, record: JournalRecord): Promise<CreatedOrder> {
  let result: CreatedOrder;
  try {
    result = await sender.client.sendOrderBody(record.body);
  } catch (error) {
    throw await recordFailure(sender, record, error);
  }
  // A resend of a settled record keeps its first outcome: "created" stays the truth about that request.
  if (record.outcome === null) {
    try {
      await sender.journal.settle(record, { kind: result.created ? 'created' : 'existing', order_id: result.order.id });
    } catch (error) {
      if (!(error instanceof JournalWriteError)) throw error;
      const id = record.client_request_id;
      throw new OrderUnrecordedError(id, result.order.id, error, sender.recoverCommand(id));
    }
  }
  return result;
}

/** Records a failed send and returns the error to report. */
async function recordFailure(sender: OrderSender, record: JournalRecord, error: unknown): Promise<unknown> {
  if (!(error instanceof CliError)) {
    // A bug: keep the record pending, since nothing tells what reached the server.
    await sender.journal.markUncertain(record, error instanceof Error ? error.message : String(error));
    return error;
  }
  if (error instanceof InterruptedError || error.outcomeUncertain) {
    await sender.journal.markUncertain(record, error.message);
    return new OrderOutcomeUnknownError(
      record.client_request_id,
      error,
      sender.recoverCommand(record.client_request_id),
    );
  }
  try {
    if (error instanceof ApiError) {
      await sender.journal.settle(record, { kind: 'refused', status: error.status, code: error.problem?.code ?? null });
    } else if (error instanceof AuthError && error.status === 401) {
      await sender.journal.settle(record, { kind: 'refused', status: 401, code: error.problem?.code ?? null });
    } else {
      // Not uncertain and not an HTTP answer: no attempt reached the server (refused, host not found).
      await sender.journal.settle(record, { kind: 'not-sent', reason: error.message });
    }
  } catch (journalError) {
    // The answer stands (no order); the record stays pending, and `order recover` settles it later.
    if (!(journalError instanceof JournalWriteError)) throw journalError;
  }
  return error;
}
