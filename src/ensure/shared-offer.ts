/**
 * The offer (`GET /v1/energy/options`) a service's cycle uses: in a fleet, the one its reader of the order list
 * read with that reading (cycle-list.ts), for as long as the reading is used (at most one interval); else read
 * from the API as ever. A stale offer costs no order and no money: an order the server no longer takes is
 * refused by the server as it is when the offer changes between a host's own read and its order (intake closed:
 * the quote's or the order's 409, as now; a duration or a portion no longer offered: the quote's 400); intake
 * reopened stops the cycle before any quote (ordering/intake.ts) until the next reading, one interval at most;
 * and the next reading brings the new offer.
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
