/** One address's line of an `ensure` run: made once, and failed the one way, whatever failed it. */
import { CliError } from '../domain/errors.js';
import { isInterruption } from '../domain/cli-errors.js';
import type { EnsureDeps, EnsureItem, EnsureReason } from './ensure-types.js';

/** A fresh item: the address's target and what it has, nothing bought yet. */
export function newItem(address: string, target: number, available: number): EnsureItem {
  return {
    address,
    available,
    in_flight: 0,
    target,
    bought: null,
    reason: 'enough',
    to_buy: 0,
    total_trx: null,
    capped: false,
    error: null,
  };
}

/** Items failed for a reason of their address's own (see isLocalFailure). */
const localFailures = new WeakSet<EnsureItem>();

/**
 * Marks the item failed for a reason of its address's own (its transfer reverts: no token, no account on
 * chain; a contract): a service's cycle still stands while the other addresses do.
 */
export function failLocally(item: EnsureItem, error: CliError): EnsureItem {
  localFailures.add(item);
  return failItem(item, error);
}

/**
 * The address's own trouble, not the run's: failed locally, or not_on_chain (the node does not show its
 * delivery), or delivery_failed (its deliveries fail, and the service backs off). The API, the node, the
 * store and the balance fail every address alike, and the cycle with them.
 */
export function isLocalFailure(item: EnsureItem): boolean {
  return item.reason === 'not_on_chain' || item.reason === 'delivery_failed' || localFailures.has(item);
}

/** Marks the item failed with the error's exit code and message (the rest of the run goes on). */
export function failItem(item: EnsureItem, error: CliError, reason: EnsureReason = 'failed'): EnsureItem {
  item.reason = reason;
  item.error = { exit_code: error.exitCode, message: error.message };
  return item;
}

/** Runs one item's work, failing the item on an expected failure; a bug or Ctrl-C/SIGTERM ends the run. */
export async function failingItemOn(item: EnsureItem, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof CliError) || isInterruption(error)) throw error;
    failItem(item, error);
  }
}

/** A note about one address: through the service's once-per-change rule where there is one, else as is. */
export function noteAbout(deps: Pick<EnsureDeps, 'note' | 'addressNote'>, key: string, line: string): void {
  if (deps.addressNote === undefined) deps.note(line);
  else deps.addressNote(key, line);
}
