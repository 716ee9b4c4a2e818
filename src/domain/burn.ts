/**
 * Rent or burn: energy an account lacks is paid by burning TRX at the chain's price, `getEnergyFee` sun for
 * each unit (tron-node-subset.md §5). What renting is measured against. Integers only (bigint), so that
 * the commands that show it (`quote`, `estimate`) do not load decimal.js to start.
 */

/** `sun` (1 TRX is 1,000,000 sun) as a six-decimal TRX amount, exactly. */
export function sunToTrx(sun: bigint): string {
  const size = sun < 0n ? -sun : sun;
  return `${sun < 0n ? '-' : ''}${size / 1_000_000n}.${(size % 1_000_000n).toString().padStart(6, '0')}`;
}

/** What burning `energy` costs at `sunPerEnergy` sun a unit, in TRX, exactly (integers all the way). */
export function burnTrx(energy: number, sunPerEnergy: number): string {
  return sunToTrx(BigInt(energy) * BigInt(sunPerEnergy));
}
