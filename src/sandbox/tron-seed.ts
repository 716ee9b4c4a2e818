/**
 * `energy sandbox --seed-address <spec>`: one TRON account as text, e.g.
 * `TXYZ…:energy=65000,used=20000,usdt=5000000` or `TXYZ…:inactive`. Pure; throws RangeError with the reason.
 */
import { checkTronAddress } from '../domain/address.js';
import type { TronAccountSeed } from './types.js';

export const SEED_ADDRESS_SYNTAX =
  '<address>[:energy=N,used=N,bandwidth=N,bandwidth-used=N,usdt=UNITS,transfers-per-hour=N,inactive,contract]';

const COUNTERS = {
  energy: 'energy',
  used: 'energyUsed',
  bandwidth: 'bandwidth',
  'bandwidth-used': 'bandwidthUsed',
} as const;

export function parseSeedAddress(text: string): { address: string; seed: TronAccountSeed } {
  const colon = text.indexOf(':');
  const address = colon === -1 ? text : text.slice(0, colon);
  const check = checkTronAddress(address);
  if (!check.ok) throw new RangeError(`not a TRON address: ${check.reason}`);
  const seed: TronAccountSeed = {};
  const parts = colon === -1 ? [] : text.slice(colon + 1).split(',');
  for (const part of parts) {
    const [key = '', value, extra] = part.split('=');
    if (key === 'inactive' && value === undefined) seed.activated = false;
    else if (key === 'contract' && value === undefined) seed.contract = true;
    else if (key === 'usdt' && value !== undefined && extra === undefined && /^(?:0|[1-9]\d{0,30})$/.test(value))
      seed.usdt = BigInt(value);
    else if (key === 'transfers-per-hour' && value !== undefined && extra === undefined && /^[1-9]\d{0,5}$/.test(value))
      seed.transfersPerHour = Number(value);
    else if (
      Object.hasOwn(COUNTERS, key) &&
      value !== undefined &&
      extra === undefined &&
      /^(?:0|[1-9]\d{0,14})$/.test(value)
    ) {
      seed[COUNTERS[key as keyof typeof COUNTERS]] = Number(value);
    } else throw new RangeError(`cannot read "${part}": use ${SEED_ADDRESS_SYNTAX}`);
  }
  return { address, seed };
}
