/**
 * Arithmetic on TRX amounts. The only importer of decimal.js: amounts live as strings with exactly six
 * fraction digits and never pass through a JavaScript number. Loaded only where amounts are compared or
 * summed; reading and checking amount text is in money-text.ts.
 */
import { Decimal } from 'decimal.js';

export { isApiAmount, parseUserAmount } from './money-text.js';

/** Compares two six-digit amounts: negative, zero or positive, like a sort comparator. */
export function compareAmounts(a: string, b: string): number {
  return new Decimal(a).comparedTo(new Decimal(b));
}

export function addAmounts(a: string, b: string): string {
  return new Decimal(a).plus(b).toFixed(6);
}

/** The sum of amounts (0.000000 for none). */
export function sumAmounts(amounts: readonly string[]): string {
  return amounts.reduce((total, amount) => addAmounts(total, amount), '0.000000');
}

export function subtractAmounts(a: string, b: string): string {
  return new Decimal(a).minus(b).toFixed(6);
}

/**
 * Price of `units` at `unitPrice` TRX each, rounded up to the micro-TRX so that a price is never understated.
 */
export function multiplyAmount(unitPrice: string, units: bigint | number): string {
  return new Decimal(unitPrice).times(units.toString()).toDecimalPlaces(6, Decimal.ROUND_UP).toFixed(6);
}

/** The exact sum of two decimal numbers (any number of fraction digits), written without an exponent. */
export function addDecimals(a: string, b: string): string {
  return new Decimal(a).plus(b).toFixed();
}
