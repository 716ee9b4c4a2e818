/** The readable forms of what `address` and `estimate` read from the chain. */
import type { AddressState } from '../tron/address-state.js';
import { formatInteger, formatYesNo } from './format.js';
import type { Row } from './views.js';

export function addressRows(state: AddressState & { contract: boolean | null }): Row[] {
  return [
    ['Address', state.address],
    ['Activated', formatYesNo(state.activated)],
    ['Contract', state.contract === null ? 'unknown (the node did not say)' : formatYesNo(state.contract)],
    ['Energy available', formatInteger(state.energy_available)],
    ['Energy limit', formatInteger(state.energy_limit)],
    ['Energy used', formatInteger(state.energy_used)],
    ['Bandwidth available', formatInteger(state.bandwidth_available)],
  ];
}

/** What the rows leave unsaid: no rental reaches a contract, and one to an address not activated pays that. */
export function addressNotes(state: { contract: boolean | null; activated: boolean }): string[] {
  if (state.contract === true)
    return [
      'energy: the address is a smart contract: TRON does not delegate energy to contract accounts, so no rental can reach it; rent for the address that sends the transactions',
    ];
  if (!state.activated)
    return ['energy: the address is not activated: a rental to it pays the activation (see `energy quote`)'];
  return [];
}

export interface EstimateView {
  from: string;
  to: string;
  token: string;
  amount: string;
  energy_used: number;
  energy_penalty: number;
  energy_to_rent: number;
  energy_per_portion: number | null;
  /** What burning energy_used would cost at the chain's price; null when the node could not say. */
  burn_trx: string | null;
}

export function estimateRows(estimate: EstimateView): Row[] {
  const rounded =
    estimate.energy_per_portion === null
      ? '(not rounded: no API portion size)'
      : `(rounded up to portions of ${formatInteger(estimate.energy_per_portion)})`;
  return [
    ['From', estimate.from],
    ['To', estimate.to],
    ['Token', estimate.token],
    ['Amount', `${estimate.amount} unit${String(estimate.amount) === '1' ? '' : 's'}`],
    ['Energy used', formatInteger(estimate.energy_used)],
    ...(estimate.energy_penalty > 0 ? [['Of which penalty', formatInteger(estimate.energy_penalty)] as const] : []),
    ['Energy to rent', `${formatInteger(estimate.energy_to_rent)} ${rounded}`],
    ...(estimate.burn_trx === null ? [] : [['Burn instead', `${estimate.burn_trx} TRX`] as const]),
  ];
}
