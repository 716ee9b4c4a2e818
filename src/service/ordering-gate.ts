/**
 * The service's gate to ordering: a cycle orders only while no stop was asked for (a signal while it reads
 * ends it before it orders anything), and the addresses it decides for go on to the lock, which with a
 * shared state (PostgreSQL) takes one lock per address across hosts.
 */
import { StoppedBeforeOrderingError } from '../domain/cli-errors.js';
import type { EnsureDeps } from '../ensure/ensure-types.js';

export function gateOrdering(exclusive: EnsureDeps['exclusive'], stopped: () => boolean): EnsureDeps['exclusive'] {
  return (work, addresses) => {
    if (stopped()) throw new StoppedBeforeOrderingError();
    return exclusive(work, addresses);
  };
}
