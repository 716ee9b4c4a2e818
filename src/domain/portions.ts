/** Energy is sold in portions: a need is rounded up to the next whole portion (pure, integers only). */

/** The smallest multiple of `portion` that is at least `energy`; 0 stays 0. */
export function roundUpToPortion(energy: number, portion: number): number {
  if (!Number.isSafeInteger(energy) || energy < 0)
    throw new RangeError(`energy must be a non-negative integer, got ${energy}`);
  if (!Number.isSafeInteger(portion) || portion <= 0)
    throw new RangeError(`portion must be a positive integer, got ${portion}`);
  return Math.ceil(energy / portion) * portion;
}
