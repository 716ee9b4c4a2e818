/** What a finished `ensure` run ends with: nothing when every item stands; else exit 9, or a single address's own code. */
import { ReportedFailureError, SomeFailedError } from '../domain/cli-errors.js';
import type { EnsureItem } from './ensure-types.js';

export function ensureFailure(items: readonly EnsureItem[]): Error | undefined {
  const failed = items.filter((item) => item.error !== null);
  const [first] = failed;
  if (first === undefined) return undefined;
  if (items.length === 1 && first.error) return new ReportedFailureError(first.error);
  // "the others stand" only where there are others.
  if (failed.length === items.length) return new SomeFailedError(`all ${items.length} addresses failed (see above)`);
  return new SomeFailedError(`${failed.length} of ${items.length} addresses failed (see above); the others stand`);
}
