/**
 * The offer (`GET /v1/energy/options`) a service's cycle uses: in a fleet, the one its reader of the order list
 * read with that reading (cycle-list.ts), for as long as the reading is used (at most one interval); else read
 * from the API as ever. A stale offer costs no order and no money: an order the server no longer takes is
 * refused by the server as it is when the offer changes between a host's own read and its order (intake closed:
 * its 409, told as now by ordering/intake.ts; a duration or a size no longer offered: its 400 on the quote),
 * and the next interval's reading brings the new offer.
 */
import type { OptionsResponse } from '../client/types.js';
import { optionsResponse } from '../client/schemas.js';

/** The offer kept in the state store, read back as tolerantly as the API's answer; undefined: not one. */
export function sharedOffer(value: unknown): OptionsResponse | undefined {
  if (value === null || value === undefined) return undefined;
  try {
    return optionsResponse(value, 'offer');
  } catch {
    return undefined;
  }
}
