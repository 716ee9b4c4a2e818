/**
 * src/app/last-resort.ts is part of the bundled entry, which imports nothing heavy, so it writes the exit code
 * for an unwritable stdout as a literal: 7, the contract's, as in src/domain/errors.ts.
 */
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/domain/errors.js';
import { OUTPUT_FAILED } from '../../../src/app/last-resort.js';

describe("the entry's literal exit code", () => {
  it('exits 7 (service or network) when standard output fails', () => {
    expect(OUTPUT_FAILED).toBe(ExitCode.service);
    expect(OUTPUT_FAILED).toBe(7);
  });
});
