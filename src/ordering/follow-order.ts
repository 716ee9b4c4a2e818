/**
 * Following an order until it is final, for `order create --wait` and `order wait`. The order exists by
 * now: when following fails (a timeout, the network, Ctrl-C), the last reading is still printed and the
 * error says it was placed, so that no script takes the failure for "nothing was bought" and buys again.
 */
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { finalAndFailed, isFinal, waitUntilFinal } from '../client/wait-for-order.js';
import { CliError, WaitTimeoutError } from '../domain/errors.js';
import { ContextualError, OrderFailedError } from '../domain/cli-errors.js';
import { printable } from '../domain/printable.js';

export interface Follower {
  client: Pick<EnergyClient, 'getOrder'>;
  /** A progress line for stderr, or undefined to stay quiet. */
  progress: ((line: string) => void) | undefined;
  print: (order: Order) => Promise<void>;
  /** The command that follows the order later, e.g. `energy order wait <id>`. */
  waitCommand: (orderId: string) => string;
  intervalMs?: number;
}

/**
 * Follows `order` to a final state, prints it, and throws exit 8 when it ended without delivery, exit 10
 * when `timeoutSeconds` ran out first.
 */
export async function followToFinal(follower: Follower, order: Order, timeoutSeconds: number): Promise<Order> {
  const status = printable(order.status, 40);
  follower.progress?.(
    isFinal(order)
      ? `energy: order ${order.id} is ${status}, final already`
      : `energy: order ${order.id} is ${status}; waiting until it is final…`,
  );
  let last = order;
  let final: Order;
  try {
    final = await waitUntilFinal(follower.client, order, {
      // The first pause; the reads then back off to one every 15 s (client/wait-for-order.ts).
      intervalMs: follower.intervalMs ?? 1000,
      timeoutMs: timeoutSeconds * 1000,
      onChange: (next) => {
        last = next;
        follower.progress?.(`energy: order ${next.id} is ${printable(next.status, 40)}`);
      },
    });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    await follower.print(last);
    if (error instanceof WaitTimeoutError)
      throw new WaitTimeoutError(last.id, error.seconds, last.status, follower.waitCommand(last.id));
    throw new ContextualError(
      `order ${last.id} was placed (client_request_id ${last.client_request_id}), but following it failed: ${error.message}`,
      error,
      { hint: `do not order again; follow it with: ${follower.waitCommand(last.id)}` },
    );
  }
  await follower.print(final);
  assertDelivered(final);
  return final;
}

/** Exit 8 for a final order that did not deliver: a failure, or a lifecycle that ended first. */
export function assertDelivered(order: Order): void {
  if (!finalAndFailed(order)) return;
  const reason =
    order.failure === null
      ? `it ended (status ${printable(order.status, 40)}) without delivery`
      : `${printable(order.failure.code, 60)}: ${printable(order.failure.message)}`;
  throw new OrderFailedError(`order ${order.id} failed: ${reason}`);
}
