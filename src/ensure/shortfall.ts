/** What to buy for one address (pure): the shortfall after what it has and what is on its way, in whole portions. */
import { roundUpToPortion } from '../domain/portions.js';

export interface ShortfallInput {
  target: number;
  available: number;
  /** Energy of orders accepted but not yet delivered to the address. */
  inFlight: number;
  portion: number;
  maxEnergy: number;
}

export interface Shortfall {
  /** target − available − in flight, never below 0. */
  missing: number;
  /** `missing` rounded up to whole portions, at most the largest whole-portion order the API takes. */
  toBuy: number;
  /** True when `toBuy` was cut to max_energy: the next run buys the rest. */
  capped: boolean;
}

export function shortfall(input: ShortfallInput): Shortfall {
  const missing = Math.max(0, input.target - input.available - input.inFlight);
  if (missing === 0) return { missing, toBuy: 0, capped: false };
  const rounded = roundUpToPortion(missing, input.portion);
  const largest = Math.floor(input.maxEnergy / input.portion) * input.portion;
  return rounded > largest ? { missing, toBuy: largest, capped: true } : { missing, toBuy: rounded, capped: false };
}
