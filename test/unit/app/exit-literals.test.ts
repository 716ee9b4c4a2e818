/**
 * src/app/cli.ts is the bundled entry and imports nothing heavy, so it writes its exit codes as literals:
 * 7 when stdout cannot be written, 128 + the signal's number after a second signal. They must be the
 * contract's, as in src/domain/errors.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/domain/errors.js';
import { SIGNAL_EXIT_CODES } from '../../../src/domain/cli-errors.js';

const source = readFileSync(new URL('../../../src/app/cli.ts', import.meta.url), 'utf8');

describe("cli.ts's literal exit codes", () => {
  it('exits 7 (service or network) when standard output fails', () => {
    const literal = /const OUTPUT_FAILED = (\d+);/.exec(source)?.[1];
    expect(Number(literal)).toBe(ExitCode.service);
  });

  it('exits 128 + n for each signal it handles, as the table says', () => {
    const table = /const numbers = \{ ([^}]*) \} as const;/.exec(source)?.[1];
    expect(table).toBeDefined();
    const numbers = Object.fromEntries(
      [...table!.matchAll(/(SIG[A-Z]+): (\d+)/g)].map(([, name, n]) => [name!, 128 + Number(n)]),
    );
    expect(numbers).toEqual(SIGNAL_EXIT_CODES);
    expect(source).toMatch(/const code = 128 \+ numbers\[name\];/);
    expect(source).toMatch(/for \(const name of \['SIGINT', 'SIGTERM', 'SIGHUP'\] as const\)/);
  });
});
