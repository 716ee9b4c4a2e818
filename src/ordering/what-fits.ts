/**
 * `--place-what-fits` (pure): which orders the available balance pays for, taken in the order given, each
 * only when what is left still covers it. An order the balance cannot cover is never sent: the server
 * would fund whichever request reached it first, not the order the user listed.
 */
import { compareAmounts, subtractAmounts } from '../domain/money.js';

export interface Fit {
  /** One per total, in order: true when it is paid for. */
  fits: boolean[];
  /** What the balance holds after the orders that fit. */
  left: string;
}

export function fitInOrder(totals: readonly string[], available: string): Fit {
  let left = available;
  const fits = totals.map((total) => {
    if (compareAmounts(total, left) > 0) return false;
    left = subtractAmounts(left, total);
    return true;
  });
  return { fits, left };
}
