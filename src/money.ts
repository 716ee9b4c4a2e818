/**
 * TRX amounts. The only importer of decimal.js: amounts live as strings with exactly six fraction digits
 * and never pass through a JavaScript number.
 */
import { Decimal } from 'decimal.js';

/** The API's amount shape: digits, a dot, exactly six digits. */
export const AMOUNT_PATTERN = /^\d+\.\d{6}$/;
/** What a user may type: a plain non-negative decimal with at most six fraction digits. */
const USER_AMOUNT_PATTERN = /^\d+(?:\.\d{1,6})?$/;

/** True when `text` is an amount exactly as the API writes one. */
export function isApiAmount(text: unknown): text is string {
  return typeof text === 'string' && AMOUNT_PATTERN.test(text);
}

/**
 * Parses an amount typed by a user (`5`, `5.5`, `5.500000`) into the API's six-digit form. Refuses
 * exponents, signs, a leading dot and more than six fraction digits rather than rounding money.
 */
export function parseUserAmount(text: string): string {
  const trimmed = text.trim();
  if (!USER_AMOUNT_PATTERN.test(trimmed)) {
    throw new RangeError(
      `"${text}" is not a TRX amount: use digits with at most six decimals, e.g. 12.5 or 12.500000`,
    );
  }
  return new Decimal(trimmed).toFixed(6);
}

/** Compares two six-digit amounts: negative, zero or positive, like a sort comparator. */
export function compareAmounts(a: string, b: string): number {
  return new Decimal(a).comparedTo(new Decimal(b));
}

export function addAmounts(a: string, b: string): string {
  return new Decimal(a).plus(b).toFixed(6);
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
