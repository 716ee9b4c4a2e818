/**
 * Placing one address's order under its need's derived id (need-id.ts), through the journal. What the
 * server answers decides what the item says:
 *   - 201: bought;
 *   - 200, an order newer than this run's reading of the list: another host ordered for this need at the
 *     same moment (in flight elsewhere), or this machine's own earlier request (bought);
 *   - 200, an order the reading could not have missed or could not reach (older than the window, or older
 *     than the part of a long list that was read): it answered an earlier need, whatever it says, so the id
 *     moves on past it, as every host's does;
 *   - 409, and the list shows an order with that id: the same, sized otherwise by another host. The 409's
 *     code is not in the spec, and 409 also means a price change or a low balance: alone it proves nothing.
 * An order still on its way (not final, or delivered within the node-lag grace) ends the walk, however old:
 * it cannot have answered an earlier need, since that need's energy would have come from it. Hopping past
 * it bought a second rental for one need (issue 32). An order whose rental ended (final, not failed) is
 * never this need's purchase: the id moves past it too, whatever the reading of the list showed.
 */
import { orderRequestBody, type CreatedOrder } from '../client/client.js';
import type { Order } from '../client/types.js';
import { timestampMs } from '../domain/api-time.js';
import { ConflictError } from '../domain/cli-errors.js';
import { orderBehindConflict, type Wanted } from '../ordering/conflict-order.js';
import { sendJournaled } from '../ordering/send-journaled.js';
import type { EnsureApi, EnsureItem, Purchase, SpendHold } from './ensure-types.js';
import { failItem } from './item.js';
import type { Need } from './need-id.js';
import { needId } from './need-id.js';
import { energyOnItsWay } from './on-its-way.js';

/** Earlier needs' orders met in a row under derived ids before giving up (each costs one request). */
export const MAX_STALE_HOPS = 10;

/** The server's order for an id, and how it came: created now, returned as existing, or found after a 409. */
interface Answer extends CreatedOrder {
  /** The journal already held this id (an earlier request of this machine's). */
  ours: boolean;
}

/** An order that answered an earlier need: this run's reading of the list would have shown it otherwise. */
function earlierNeeds(order: Order, need: Need): boolean {
  const created = timestampMs(order.created_at);
  return created < need.windowStartMs || (need.listedSinceMs !== undefined && created < need.listedSinceMs);
}

/** Final without a failure: delivered and expired (or ended), so it supplies nothing to a need now. */
function rentalEnded(order: Order): boolean {
  return order.lifecycle_final && order.failure === null;
}

export async function placeNeed(
  api: EnsureApi,
  hours: number,
  { item, quote, need }: Purchase,
  serverNowMs: () => number,
  hold?: SpendHold,
): Promise<void> {
  let anchor = need.anchor;
  for (let hop = 0; hop <= MAX_STALE_HOPS; hop += 1) {
    const id = needId(item.address, anchor);
    // --max-spend: held under this id before it leaves (checked again for a new id), or not sent at all.
    const refused = await hold?.sending(id);
    if (refused !== undefined) {
      failItem(item, refused, 'spend_limit');
      return;
    }
    const body = orderRequestBody({
      client_request_id: id,
      address: item.address,
      energy: item.to_buy,
      duration_hours: hours,
      expected_total_trx: quote.total_trx,
    });
    const wanted = { address: item.address, duration_hours: hours, energy: undefined };
    const answer = await send(api, id, body, need, wanted, hold);
    const onItsWay = energyOnItsWay(answer.order, serverNowMs()) > 0;
    if (!answer.created && !onItsWay && (earlierNeeds(answer.order, need) || rentalEnded(answer.order))) {
      await hold?.nothing();
      anchor = { orderId: answer.order.id };
      continue;
    }
    // This need's order, whoever placed it: in the ledger before anything else can fail.
    await hold?.ordered(answer.order);
    if (answer.created || answer.ours) return bought(item, answer.order);
    return boughtElsewhere(item, answer.order, serverNowMs());
  }
  throw new ConflictError(
    `the order ids derived for ${item.address} all belong to earlier needs' orders (${MAX_STALE_HOPS + 1} tried): nothing bought`,
    {
      hint: 'the account has more orders than the newest 1,000 that ensure reads; run again later, or buy with `energy order create`',
    },
  );
}

async function send(
  api: EnsureApi,
  id: string,
  body: string,
  need: Need,
  wanted: Wanted,
  hold: SpendHold | undefined,
): Promise<Answer> {
  const { record, fresh } = await api.journal.begin(id, body);
  try {
    return { ...(await sendJournaled(api, record)), ours: !fresh };
  } catch (error) {
    // Another host's order for this need may be sized otherwise (chain reads a few blocks apart): energy is
    // not compared; the address and hours are.
    const found = await orderBehindConflict(api.client, id, error, need.windowStartMs, wanted);
    if (found === undefined || found instanceof ConflictError) {
      // The hold goes only where the journal says this request placed nothing (refused, never sent).
      await hold?.failed(await api.journal.find(id));
      throw found ?? error;
    }
    return { order: found, created: false, ours: false };
  }
}

function bought(item: EnsureItem, order: Order): void {
  item.bought = order;
  item.reason = 'bought';
}

/** Another host ordered for this need: counted in flight while on its way, nothing bought here. */
function boughtElsewhere(item: EnsureItem, order: Order, serverNowMs: number): void {
  item.in_flight += energyOnItsWay(order, serverNowMs);
  item.reason = 'in_flight_elsewhere';
  item.to_buy = 0;
  item.total_trx = null;
}
