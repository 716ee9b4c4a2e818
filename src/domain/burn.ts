/**
 * Rent or burn: energy an account lacks is paid by burning TRX at the chain's price, `getEnergyFee` sun for
 * each unit (tron-node-subset.md §5). What renting is measured against.
 */
import { sunToTrx } from './money.js';

/** What burning `energy` costs at `sunPerEnergy` sun a unit, in TRX, exactly (integers all the way). */
export function burnTrx(energy: number, sunPerEnergy: number): string {
  return sunToTrx(BigInt(energy) * BigInt(sunPerEnergy));
}
