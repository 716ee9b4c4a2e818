/**
 * Renewal ahead of the end (`--renew-before`, pure): a rental delivered to an address lasts `created_at` +
 * `duration_hours` on the server's clock. When one ends within the lead, what the address will have then is
 * what it has now less that rental's share, and when that falls below the target the shortfall is bought now,
 * so that the new delivery lands before the old rental ends: no transfer in between burns TRX. The cost is the
 * overlap, paid twice: a lead of L on rentals of H hours rents about L / H more (2 minutes on 1 hour: 3.4%).
 */
import type { Order } from '../client/types.js';
import { timestampMs } from '../domain/api-time.js';
import type { AddressState } from '../tron/address-state.js';

/** The lead a service renews with when --renew-before is not given: its interval and a minute, at least 2 m. */
export const DELIVERY_ALLOWANCE_MS = 60_000;
export const LEAST_DEFAULT_LEAD_MS = 120_000;

/**
 * --renew-before's default: with --every, the interval plus a minute for the delivery (at least 2 minutes), so
 * that one cycle falls within the lead and its delivery lands before the end; at most a quarter of the rental
 * (a longer lead would buy a new rental long before it is needed). One run (no --every): 0, as before.
 */
export function defaultRenewBeforeMs(everyMs: number | undefined, hours: number): number {
  if (everyMs === undefined) return 0;
  return Math.min(Math.max(LEAST_DEFAULT_LEAD_MS, everyMs + DELIVERY_ALLOWANCE_MS), (hours * 3_600_000) / 4);
}

/** When the rental ends, on the server's clock: its creation plus its term. */
export function rentalEndMs(order: Order): number {
  return timestampMs(order.created_at) + order.duration_hours * 3_600_000;
}

/** Delivered, not failed and not final: energy the address holds now, until its term ends. */
export function isHeldRental(order: Order, serverNowMs: number): boolean {
  return order.failure === null && order.delivery_final && !order.lifecycle_final && rentalEndMs(order) > serverNowMs;
}

export interface Ending {
  /** Energy of the held rentals that end within the lead. */
  energy: number;
  /** The first of their ends (ms, server clock), or undefined when none ends within it. */
  firstEndMs: number | undefined;
}

/** The held rentals of `rentals` whose term ends within `leadMs` of `serverNowMs`. */
export function endingWithin(rentals: readonly Order[], serverNowMs: number, leadMs: number): Ending {
  let energy = 0;
  let firstEndMs: number | undefined;
  const seen = new Set<string>();
  for (const order of rentals) {
    const end = rentalEndMs(order);
    if (seen.has(order.id) || !isHeldRental(order, serverNowMs) || end > serverNowMs + leadMs) continue;
    seen.add(order.id);
    energy += order.energy;
    firstEndMs = firstEndMs === undefined ? end : Math.min(firstEndMs, end);
  }
  return { energy, firstEndMs };
}

/**
 * What the address has available once `ending` energy leaves its limit. java-tron moves the receiver's usage
 * back to the owner in proportion to the stake undelegated (UnDelegateResourceActuator: `transferUsage` =
 * the receiver's usage × undelegated / its whole energy stake, then `unDelegateIncrease` on the owner), so the
 * available energy shrinks by the same share as the limit: available × (limit − ending) / limit.
 */
export function availableAfter(state: AddressState, ending: number): number {
  if (ending <= 0) return state.energy_available;
  if (ending >= state.energy_limit) return 0;
  return Math.floor((state.energy_available * (state.energy_limit - ending)) / state.energy_limit);
}
