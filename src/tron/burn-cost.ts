/**
 * What burning energy would cost at the chain's current price, for `quote`, `estimate`, `ensure` and
 * `spend`: the rent-or-burn comparison beside a figure the command is really about. So a node that cannot
 * say the price costs a note and a null, never the command's answer.
 */
import { burnTrx } from '../domain/burn.js';
import { CliError } from '../domain/errors.js';
import { isInterruption } from '../domain/cli-errors.js';
import type { TronNode } from './tron-node.js';

/** The chain's sun per unit of energy, or null when the node cannot say (after a note). */
export async function energyPriceOrNull(
  node: Pick<TronNode, 'getEnergyPrice'>,
  note: (line: string) => void,
): Promise<number | null> {
  try {
    return (await node.getEnergyPrice()).sunPerEnergy;
  } catch (error) {
    if (!(error instanceof CliError) || isInterruption(error)) throw error;
    note(`energy: the price of burning energy is unknown (${error.message}): burn_trx left out`);
    return null;
  }
}

/** What burning `energy` would cost (six decimals), or null when the node cannot say (after a note). */
export async function burnCost(
  node: Pick<TronNode, 'getEnergyPrice'>,
  energy: number,
  note: (line: string) => void,
): Promise<string | null> {
  const sunPerEnergy = await energyPriceOrNull(node, note);
  return sunPerEnergy === null ? null : burnTrx(energy, sunPerEnergy);
}
