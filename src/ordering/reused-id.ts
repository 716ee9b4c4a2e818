/**
 * A client_request_id this machine already journaled for another address, energy or duration: the server
 * would answer with the first order (200) or a 409, never the one asked for. Refused before anything is
 * sent, by `order create` and by `order batch` (a client_request_id column), in the same words.
 */
import { ConflictError } from '../domain/cli-errors.js';
import { formatInteger } from '../domain/text-forms.js';
import { recordedOrder, type JournalRecord } from '../journal/record.js';

/** What an order asks for, as far as its id goes. */
export interface OrderParameters {
  address: string;
  energy: number;
  hours: number;
}

/** Exit 5 when `record` was sent for other parameters than `wanted`; `where` goes first (a batch's line). */
export function refuseOtherParameters(
  record: JournalRecord,
  wanted: OrderParameters,
  how: { where?: string; hint: string },
): void {
  const sent = recordedOrder(record);
  if (sent.address === wanted.address && sent.energy === wanted.energy && sent.duration_hours === wanted.hours) return;
  throw new ConflictError(
    `${how.where === undefined ? '' : `${how.where}: `}client_request_id ${record.client_request_id} was already used from this machine for ${sent.address}, ${formatInteger(sent.energy)} energy, ${sent.duration_hours} h: nothing was sent`,
    { hint: how.hint },
  );
}
