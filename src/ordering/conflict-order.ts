/**
 * "409, then look in the list": an order request answered 409, and the order list shows an order with its
 * client_request_id. The id's order exists: the same file or need, sent from another host (or another
 * state folder) at another size or price. The 409's code is not in the spec, and 409 also means a price
 * change or a low balance, so only the order itself is proof. Used by `order batch` and `ensure`.
 */
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { ApiError } from '../domain/errors.js';
import { findRecentOrders } from './find-recent.js';

/**
 * The order behind `error` for `id`: undefined when the error is not a 409, when the list (read back to
 * `sinceMs`, no slack) has no order with that id, or when the list cannot be read now (the 409 stands).
 */
export async function orderBehindConflict(
  client: Pick<EnergyClient, 'orderPages'>,
  id: string,
  error: unknown,
  sinceMs: number,
): Promise<Order | undefined> {
  if (!(error instanceof ApiError && error.status === 409)) return undefined;
  try {
    return (await findRecentOrders(client, new Set([id]), sinceMs, { slackMs: 0 })).get(id);
  } catch {
    return undefined;
  }
}
