/** Prices in TRX, always as six-digit decimal strings through src/domain/money.ts. */
import type { QuoteRequest, QuoteResponse } from '../client/types.js';
import { addAmounts, compareAmounts, isApiAmount, multiplyAmount } from '../domain/money.js';
import { ACTIVATION_TRX, DEFAULT_RATES, DURATIONS } from './catalog.js';

export class Pricing {
  private readonly rates = new Map<number, string>(
    DURATIONS.map((hours) => [hours, DEFAULT_RATES[hours] ?? '0.000000']),
  );

  /** Merges new per-unit rates; a duration that is not offered or a malformed amount is a programming error. */
  setRates(rates: Record<number, string>): void {
    const entries = Object.entries(rates).map(([hours, rate]) => [Number(hours), rate] as const);
    for (const [hours, rate] of entries) {
      if (!DURATIONS.includes(hours))
        throw new RangeError(`no ${hours} h duration is offered (${DURATIONS.join(', ')})`);
      if (!isApiAmount(rate))
        throw new RangeError(`rate for ${hours} h must have six decimals, got ${JSON.stringify(rate)}`);
    }
    for (const [hours, rate] of entries) this.rates.set(hours, rate);
  }

  /**
   * `activated` says whether the address has already had an order delivered here. When it has not, the
   * activation fee is part of the price; activation_trx null means that no activation is needed.
   */
  quote(request: QuoteRequest, activated: boolean, available: string): QuoteResponse {
    const rate = this.rates.get(request.duration_hours);
    if (rate === undefined) throw new RangeError(`no rate for ${request.duration_hours} h`);
    const energyTrx = multiplyAmount(rate, request.energy);
    const activationTrx = activated ? null : ACTIVATION_TRX;
    const totalTrx = activationTrx === null ? energyTrx : addAmounts(energyTrx, activationTrx);
    return {
      address: request.address,
      energy: request.energy,
      duration_hours: request.duration_hours,
      energy_trx: energyTrx,
      activation_trx: activationTrx,
      total_trx: totalTrx,
      can_afford: compareAmounts(available, totalTrx) >= 0,
    };
  }
}
