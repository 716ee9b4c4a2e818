/** What the sandbox offers: the options endpoint's values and the default prices. */
import { encodeTronAddress } from '../domain/address.js';

export const ENERGY_PER_PORTION = 1000;
export const MAX_ENERGY = 5_000_000;
export const DURATIONS: readonly number[] = [1, 3, 6, 24, 72, 168];
/**
 * The same durations as sent on the wire: the spec lets items be integer strings, and mixing both forms makes
 * every client prove that it normalises them.
 */
export const DURATIONS_ON_WIRE: readonly (number | string)[] = [1, '3', 6, '24', 72, 168];

/** TRX per energy unit, by duration in hours. */
export const DEFAULT_RATES: Readonly<Record<number, string>> = {
  1: '0.000040',
  3: '0.000100',
  6: '0.000180',
  24: '0.000600',
  72: '0.001500',
  168: '0.003000',
};

/** Charged once per address until an order to it has been delivered (a fresh TRON account must be activated). */
export const ACTIVATION_TRX = '1.100000';

/** 0x41 + 20 ASCII bytes: deterministic, valid, and obviously not a real account. */
function sandboxAddress(label: string): string {
  const id = Buffer.from(label, 'ascii');
  if (id.length !== 20) throw new Error(`sandbox address label must be 20 bytes: ${label}`);
  return encodeTronAddress(Buffer.concat([Buffer.from([0x41]), id]));
}

/** A valid TRON address whose orders always end in failure (DELEGATION_FAILED). */
export const SANDBOX_FAILING_ADDRESS: string = sandboxAddress('sandbox-always-fails');

/**
 * A valid TRON address whose orders fail before delegation starts: `lifecycle_final` true while
 * `delivery_final` stays false (the spec allows it; a client must not wait for a delivery that never comes).
 */
export const SANDBOX_UNDELIVERABLE_ADDRESS: string = sandboxAddress('sandbox-never-starts');

/**
 * A valid TRON address whose orders end undelivered without a failure object: `lifecycle_final` true,
 * `delivery_final` false, `failure` null, status `cancelled` (the spec allows it), the price returned.
 */
export const SANDBOX_CANCELLED_ADDRESS: string = sandboxAddress('sandbox-is-cancelled');

/** Targets of seeded orders; few, so that seeding does not spend its time on base58. */
export const SEED_ADDRESSES: readonly string[] = Array.from({ length: 8 }, (_, i) =>
  sandboxAddress(`sandbox-seed-order-${i}`),
);
