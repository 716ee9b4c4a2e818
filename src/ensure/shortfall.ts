/**
 * What to buy for one address (pure): the shortfall after what it has and what is on its way, in whole
 * portions, unless it is within the tolerance for drift. Delivered energy is `stake × TotalEnergyLimit /
 * TotalEnergyWeight` and moves with the network's stake, so a fresh 65,000 rental may read 64,987 an hour
 * later: buying a whole portion for those 13 units, on every run that sees them, would cost more than it saves.
 */
import { roundUpToPortion } from '../domain/portions.js';

/** --tolerance's default: 1% (in basis points). */
export const DEFAULT_TOLERANCE_BP = 100;

/** The energy that `bp` basis points of `energy` tolerate, rounded down (integers only). */
export function toleratedUnits(energy: number, bp: number): number {
  return Math.floor((energy * bp) / 10_000);
}

export interface ShortfallInput {
  target: number;
  available: number;
  /** Energy of orders accepted but not yet delivered to the address. */
  inFlight: number;
  portion: number;
  maxEnergy: number;
  /** Basis points of the target that may be missing without buying; default 0. */
  toleranceBp?: number;
}

export interface Shortfall {
  /** target − available − in flight, never below 0. */
  missing: number;
  /** `missing` rounded up to whole portions, at most the largest whole-portion order the API takes; 0 when tolerated. */
  toBuy: number;
  /** True when `toBuy` was cut to max_energy: the next run buys the rest. */
  capped: boolean;
}

export function shortfall(input: ShortfallInput): Shortfall {
  const missing = Math.max(0, input.target - input.available - input.inFlight);
  if (missing === 0 || missing <= toleratedUnits(input.target, input.toleranceBp ?? 0))
    return { missing, toBuy: 0, capped: false };
  const rounded = roundUpToPortion(missing, input.portion);
  const largest = Math.floor(input.maxEnergy / input.portion) * input.portion;
  return rounded > largest ? { missing, toBuy: largest, capped: true } : { missing, toBuy: rounded, capped: false };
}

/** Short on chain alone, beyond the tolerance: worth counting what is in flight and quoting. */
export function isShort(target: number, available: number, toleranceBp: number): boolean {
  return target - available > toleratedUnits(target, toleranceBp);
}

/**
 * The least energy that confirms a delivery with --wait: what was there plus what was bought, less the
 * tolerance on what was bought (the provider's stake yields a little less than the order said).
 */
export function arrivalExpected(before: number, bought: number, toleranceBp: number): number {
  return before + bought - toleratedUnits(bought, toleranceBp);
}
