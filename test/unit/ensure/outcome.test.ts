/** ensure/outcome: the error a finished run ends with, in words that fit how many addresses failed. */
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/domain/errors.js';
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

  it('every one failed: exit 9, "all N", no others to stand', () => {
    const error = ensureFailure(items(3, 3));
    expect((error as SomeFailedError).exitCode).toBe(ExitCode.someFailed);
    expect(error?.message).toBe('all 3 addresses failed (see above)');
  });

  it("a single address ends with its own failure's exit code", () => {
    expect((ensureFailure(items(1, 1)) as ConflictError).exitCode).toBe(ExitCode.conflict);
  });
});
