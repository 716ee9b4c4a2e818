/** ensure/outcome: the error a finished run ends with, in words that fit how many addresses failed. */
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode, UsageError } from '../../../src/domain/errors.js';
import { ConflictError, SomeFailedError } from '../../../src/domain/cli-errors.js';
import { failItem, newItem } from '../../../src/ensure/item.js';
import { ensureFailure } from '../../../src/ensure/outcome.js';
import { freshAddress } from '../../helpers/e2e.js';

const items = (count: number, failed: number) =>
  Array.from({ length: count }, (_, n) => {
    const item = newItem(freshAddress(72_000 + n), 65_000, 0);
    return n < failed ? failItem(item, new ConflictError('needs 3.700000 TRX, 1.000000 available')) : item;
  });

describe('ensureFailure', () => {
  it('nothing when every address stands', () => {
    expect(ensureFailure(items(3, 0))).toBeUndefined();
  });

  it('some failed: exit 9, "the others stand"', () => {
    const error = ensureFailure(items(3, 1));
    expect(error).toBeInstanceOf(SomeFailedError);
    expect(error?.message).toBe('1 of 3 addresses failed (see above); the others stand');
  });

  it('every one failed for the same code: that code (5 here), "all N", no others to stand', () => {
    const error = ensureFailure(items(3, 3));
    expect((error as CliError).exitCode).toBe(5);
    expect(error?.message).toBe('all 3 addresses failed (see above)');
  });

  it('every one failed for one local reason: exit 2, as one address would, not 9', () => {
    const all = items(2, 0).map((item) => failItem(item, new UsageError('--hours 5 is not offered')));
    expect((ensureFailure(all) as CliError).exitCode).toBe(2);
  });

  it('every one failed, with different codes: exit 9', () => {
    const mixed = items(2, 1);
    mixed[1] = failItem(mixed[1]!, new UsageError('a contract'));
    const error = ensureFailure(mixed);
    expect(error).toBeInstanceOf(SomeFailedError);
    expect((error as SomeFailedError).exitCode).toBe(ExitCode.someFailed);
    expect(error?.message).toBe('all 2 addresses failed (see above)');
  });

  it("a single address ends with its own failure's exit code", () => {
    expect((ensureFailure(items(1, 1)) as ConflictError).exitCode).toBe(ExitCode.conflict);
  });
});
