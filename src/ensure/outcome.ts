/**
 * What a finished `ensure` run ends with: nothing when every item stands; else exit 9, or a single address's
 * own code, or, when every address failed with the same code (one local reason: --hours not offered, a
 * config problem), that code: nothing stands, and a script tells the cause by it as for one address.
 */
import { ReportedFailureError, SomeFailedError } from '../domain/cli-errors.js';
import type { EnsureItem } from './ensure-types.js';

export function ensureFailure(items: readonly EnsureItem[]): Error | undefined {
  const failed = items.filter((item) => item.error !== null);
  const [first] = failed;
  if (first === undefined) return undefined;
  if (items.length === 1 && first.error) return new ReportedFailureError(first.error);
  // "the others stand" only where there are others.
  if (failed.length === items.length) {
    const codes = new Set(failed.map((item) => item.error?.exit_code));
    const [code] = codes;
    if (codes.size === 1 && code !== undefined)
      return new ReportedFailureError({ message: `all ${items.length} addresses failed (see above)`, exit_code: code });
    return new SomeFailedError(`all ${items.length} addresses failed (see above)`);
  }
  return new SomeFailedError(`${failed.length} of ${items.length} addresses failed (see above); the others stand`);
}
