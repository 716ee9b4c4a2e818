/**
 * TRX amounts as text: the API's six-digit pattern and the reading of an amount a user typed. String work
 * only, so that parsing `--max-total` at start-up does not load decimal.js (see money.ts for arithmetic).
 */

import { printable } from './printable.js';

/** The API's amount shape: digits, a dot, exactly six digits. */
export const AMOUNT_PATTERN = /^\d+\.\d{6}$/;
/** What a user may type: a plain non-negative decimal with at most six fraction digits. */
const USER_AMOUNT_PATTERN = /^(\d+)(?:\.(\d{1,6}))?$/;
/** How to write an amount, for a message about one that is not. */
export const USER_AMOUNT_ADVICE = 'use digits with at most six decimals, e.g. 12.5 or 12.500000';

/** True when `text` is an amount exactly as the API writes one. */
export function isApiAmount(text: unknown): text is string {
  return typeof text === 'string' && AMOUNT_PATTERN.test(text);
}

/**
 * Reads an amount typed by a user (`5`, `5.5`, `5.500000`) into the API's six-digit form. Refuses
 * exponents, signs, a leading dot and more than six fraction digits rather than rounding money.
 */
export function parseUserAmount(text: string): string {
  const match = USER_AMOUNT_PATTERN.exec(text.trim());
  if (match === null) {
    throw new RangeError(`"${printable(text, 40)}" is not a TRX amount: ${USER_AMOUNT_ADVICE}`);
  }
  const whole = match[1]!.replace(/^0+(?=\d)/, '');
  return `${whole}.${(match[2] ?? '').padEnd(6, '0')}`;
}
