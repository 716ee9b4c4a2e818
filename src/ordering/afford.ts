/**
 * Refusing orders the balance cannot pay, before any is placed: otherwise a batch or `ensure` places what
 * it can and fails the rest, leaving a half-bought list the user never agreed to.
 */
import type { EnergyClient } from '../client/client.js';
import { ConflictError } from '../domain/cli-errors.js';
import { compareAmounts } from '../domain/money.js';

export interface AffordCheck {
  /** What the orders to place cost in all. */
  total: string;
  /** Some quote said `can_afford: false`. */
  quoteRefused: boolean;
  /** How many quotes make up the total: one quote's `can_afford` already answers for the balance. */
  quotes: number;
  /** Shown after the refusal, e.g. how to place what fits. */
  hint?: string | undefined;
}

/**
 * Exit 5 when the available balance (one signed GET /v1/balance, also read to say what is available) is
 * below the total, or a quote said so.
 */
export async function refuseUnaffordable(client: Pick<EnergyClient, 'balance'>, check: AffordCheck): Promise<void> {
  if (check.quotes <= 1 && !check.quoteRefused) return;
  const { available_trx: available } = await client.balance();
  if (!check.quoteRefused && compareAmounts(check.total, available) <= 0) return;
  throw new ConflictError(`needs ${check.total} TRX, ${available} available: no order was placed`, {
    hint: check.hint ?? 'add TRX to the balance, or order less',
  });
}
