/**
 * The service's gate to ordering: a cycle orders only while no stop was asked for (a signal while it reads
 * ends it before it orders anything). The addresses it decides go on to their claim's decision, which with a
 * shared state (PostgreSQL) renews their leases, and in the folder takes this machine's lock.
 */
import { StoppedBeforeOrderingError } from '../domain/cli-errors.js';
import type { EnsureDeps } from '../ensure/ensure-types.js';

export function gateOrdering(claim: EnsureDeps['claim'], stopped: () => boolean): EnsureDeps['claim'] {
  return async (addresses, slice) => {
    const claimed = await claim(addresses, slice);
    return {
      mine: claimed.mine,
      elsewhere: claimed.elsewhere,
      ...(claimed.more !== undefined && !stopped() && { more: claimed.more }),
      release: (decided) => claimed.release(decided),
      decide: (wanted, work) => {
        if (stopped()) throw new StoppedBeforeOrderingError();
        return claimed.decide(wanted, work);
      },
    };
  };
}
