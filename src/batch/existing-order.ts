/**
 * An order the server already has under a line's id, met when sending the line (200) or behind a 409: is it
 * this line's, and this run's? Both are judged on the server's clock, over one look-back for the run.
 */
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { timestampMs } from '../domain/api-time.js';
import { ConflictError } from '../domain/cli-errors.js';
import { ApiError, CliError } from '../domain/errors.js';
import { orderBehindConflict } from '../ordering/conflict-order.js';
import type { BatchLine } from './parse-line.js';

/** What every line of one run shares about the look-back. */
export interface LookBack {
  /** How far back a 409's order is looked for, on the server's clock. */
  elsewhereSince: () => Promise<number>;
}

/** How far back a 409's order is looked for: the same file run from another host, today. */
export const ELSEWHERE_WINDOW_MS = 24 * 3_600_000;

/**
 * An order under a line's derived id placed before the run's look-back (24 h on the server's clock) is not
 * this run's purchase: next month's `payouts.csv`, run on a host without last month's journal, met last
 * month's orders under the same ids and reported every line `existing`, exit 0, nothing bought (issue 32).
 * Such a line fails, saying so and how to buy again. An id the file gives is the user's own name for the
 * order: its order stands, however old, as `order create --client-request-id` does.
 */
export async function beforeLookBack(line: BatchLine, order: Order, shared: LookBack): Promise<CliError | undefined> {
  if (line.clientRequestId !== undefined) return undefined;
  let sinceMs: number;
  try {
    sinceMs = await shared.elsewhereSince();
  } catch {
    return undefined; // The server's clock cannot be read: the order stands as before.
  }
  if (timestampMs(order.created_at) >= sinceMs) return undefined;
  const placed = new Date(timestampMs(order.created_at)).toISOString().slice(0, 16);
  return new ConflictError(
    `this line's derived id already names order ${order.id}, placed ${placed}Z, before this run's look-back of 24 h: an earlier run of a file of the same name, not this run's purchase; nothing bought. To buy these lines again, run them as another batch (a copy of the file under another name) or give each a client_request_id`,
  );
}

/** The order behind a 409, placed by another host; undefined when none is found or the server's clock cannot be read. */
export async function lineBehindConflict(
  client: Pick<EnergyClient, 'orderPages'>,
  line: BatchLine,
  id: string,
  error: CliError,
  shared: LookBack,
): Promise<Order | CliError | undefined> {
  if (!(error instanceof ApiError && error.status === 409)) return undefined;
  let sinceMs: number;
  try {
    sinceMs = await shared.elsewhereSince();
  } catch {
    return undefined; // The 409 stands; a re-run looks again.
  }
  // The line's own order only: the same id in another file (a client_request_id column) may be another address's.
  return orderBehindConflict(client, id, error, sinceMs, {
    address: line.address,
    energy: line.energy,
    duration_hours: line.hours,
  });
}
