/**
 * "409, then look in the list": an order request answered 409, and the order list shows an order with its
 * client_request_id. The id's order exists: the same file or need, sent from another host (or another
 * state folder) at another size or price. The 409's code is not in the spec, and 409 also means a price
 * change or a low balance, so only the order itself is proof, and only when it is the request's: its
 * address and hours (and, where the request fixes it, its energy) are the request's. An id is only a
 * name; another file's line `1` on another host may hold it for another address (issue 32). Used by
 * `order batch` and `ensure`.
 */
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { ConflictError } from '../domain/cli-errors.js';
import { ApiError } from '../domain/errors.js';
import { formatInteger } from '../domain/text-forms.js';
import { findRecentOrders } from './find-recent.js';

/** What the request asked for: the order behind the 409 must match. */
export interface Wanted {
  address: string;
  duration_hours: number;
  /** Undefined where hosts may size one request differently (ensure's needs): energy is then not compared. */
  energy: number | undefined;
}

/**
 * The order behind `error` for `id`: undefined when the error is not a 409, when the list (read back to
 * `sinceMs`, no slack) has no order with that id, or when the list cannot be read now (the 409 stands); a
 * ConflictError saying so when the id's order is another request's (the 409 stands, explained).
 */
export async function orderBehindConflict(
  client: Pick<EnergyClient, 'orderPages'>,
  id: string,
  error: unknown,
  sinceMs: number,
  wanted: Wanted,
): Promise<Order | ConflictError | undefined> {
  if (!(error instanceof ApiError && error.status === 409)) return undefined;
  let order: Order | undefined;
  try {
    order = (await findRecentOrders(client, new Set([id]), sinceMs, { slackMs: 0 })).get(id);
  } catch {
    return undefined;
  }
  if (order === undefined || isWanted(order, wanted)) return order;
  return new ConflictError(
    `client_request_id ${id} is already order ${order.id} for ${order.address}, ${formatInteger(order.energy)} energy, ${order.duration_hours} h: not this request's, nothing placed`,
    { hint: 'give this request a client_request_id of its own' },
  );
}

function isWanted(order: Order, wanted: Wanted): boolean {
  return (
    order.address === wanted.address &&
    order.duration_hours === wanted.duration_hours &&
    (wanted.energy === undefined || order.energy === wanted.energy)
  );
}
