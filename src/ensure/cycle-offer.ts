/**
 * The offer a cycle of `ensure` sizes and orders by: a service's, through its cycle's reading of the order list
 * (in a fleet, the reader's offer: shared-offer.ts); a one-shot run's, or where none is shared, read here.
 */
import type { EnergyClient } from '../client/client.js';
import type { OptionsResponse } from '../client/types.js';
import type { ServerClock } from '../ordering/server-clock.js';
import { FLEET_REACH_MS, type CycleList } from './cycle-list.js';

/**
 * The cycle's offer, read while the server's clock is (`clock`: the reader's list reaches back from it). Without
 * a cycle's list (a one-shot run): `GET /v1/energy/options`, as ever; a service's cycle reads it at most once.
 */
export async function cycleOffer(
  client: Pick<EnergyClient, 'options' | 'orderPages'>,
  list: CycleList | undefined,
  addresses: ReadonlySet<string>,
  clock: Promise<ServerClock>,
): Promise<OptionsResponse> {
  if (list === undefined) return client.options();
  const reach = clock.then((read) => read.nowMs() - FLEET_REACH_MS);
  // The clock's failure is the cycle's, heard where the cycle awaits it: here only if this host reads the list.
  reach.catch(() => undefined);
  return list.offer(client, addresses, reach);
}
