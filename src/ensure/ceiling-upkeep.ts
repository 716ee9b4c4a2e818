/**
 * The --max-spend ledger kept true between runs, for spend-ceiling.ts: when an order would not fit, the
 * ledger's orders not known final are read again (a refund gives its price back; a 404 settles the entry as
 * unknown, kept counted, never a failed run); and holds of earlier runs whose journal record has an order the
 * ledger lacks are filed as that order.
 */
import type { Order } from '../client/types.js';
import { endedUndelivered, isFinal } from '../client/wait-for-order.js';
import { ApiError } from '../domain/errors.js';
import type { OrderJournal } from '../journal/order-journal.js';
import { orderIdOf } from '../journal/record.js';
import type { SpendEvent, SpendLedger } from '../journal/spend-ledger.js';
import type { Ceiling, EnsureClient } from './ensure-types.js';

/** Orders followed again at most, when the ceiling is near, to find refunds. */
const RECHECK_AT_MOST = 20;
/** Holds of earlier runs looked up in the journal at most, per run. */
const LEARN_AT_MOST = 100;

/** What the ceiling needs once it counts: opened at the first order, never by a run that buys nothing. */
export interface CeilingStore {
  ledger: SpendLedger;
  /** This run's API and key: its holds are filed under them, and its journal says what became of them. */
  journal: Pick<OrderJournal, 'find' | 'findAll' | 'scope'>;
}

/** The ledger's orders not known final, read again: true when some turned out refunded. */
export async function recheckOpenOrders(
  { ledger, journal }: CeilingStore,
  ceiling: Ceiling,
  nowMs: number,
  client: Pick<EnsureClient, 'getOrder'>,
  note: (line: string) => void,
): Promise<boolean> {
  const open = await ledger.openOrders(nowMs - ceiling.windowMs, journal.scope.keyId, RECHECK_AT_MOST);
  const events: SpendEvent[] = [];
  for (const { id, order_id } of open) {
    let order: Order;
    try {
      order = await client.getOrder(order_id);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      const said = `the API answered 404 for order ${order_id}: it stays counted under --max-spend until it leaves the window`;
      note(`energy: ${said}`);
      events.push({ kind: 'final', id, state: 'unknown', at_ms: nowMs, note: said });
      continue;
    }
    if (!isFinal(order)) continue;
    events.push({
      kind: 'final',
      id,
      state: endedUndelivered(order) ? 'refunded' : 'kept',
      at_ms: nowMs,
      note: null,
    });
  }
  if (events.length > 0) await ledger.append(events, nowMs);
  return events.some((event) => event.kind === 'final' && event.state === 'refunded');
}

/**
 * Holds of this key's earlier runs whose journal record has an order the ledger lacks (a run killed between
 * its answer and its ledger line; `order recover`): filed as that order now. Later than it was placed, so it
 * counts longer, never shorter.
 */
export async function learnFromJournal({ ledger, journal }: CeilingStore, ceiling: Ceiling, nowMs: number) {
  // The journal is the key's, whatever spelling of the URL its records were sent under.
  const { keyId } = journal.scope;
  const lacking = await ledger.lackingOrders(nowMs - ceiling.windowMs, keyId, LEARN_AT_MOST);
  if (lacking.length === 0) return;
  // One read for all of them: in a fleet, most are other hosts' requests on their way now (no order yet).
  const records = await journal.findAll?.(lacking.map(({ id }) => id));
  const events: SpendEvent[] = [];
  for (const { id, address, total } of lacking) {
    const record = records === undefined ? await journal.find(id) : records.get(id);
    const orderId = record === undefined ? undefined : orderIdOf(record);
    if (orderId === undefined) continue;
    events.push({ kind: 'order', id, order_id: orderId, address, total_trx: total, at_ms: nowMs });
  }
  if (events.length > 0) await ledger.append(events, nowMs);
}
