/**
 * Suites that need what a machine may lack (fish, zsh, shellcheck, PostgreSQL, pgbouncer, /dev/full, /proc). Where it is missing
 * the suite is skipped and its name says why, so the summary (summary-reporter.ts) names it; where
 * ENERGY_TESTS_REQUIRE_ALL=1 (CI sets it in `.ci/run`, which installs the shells), a missing need is a
 * failing test instead, so that a suite CI means to run can never pass by being skipped.
 */
import { spawnSync } from 'node:child_process';
import { describe, it } from 'vitest';

const REQUIRE_ALL = process.env.ENERGY_TESTS_REQUIRE_ALL === '1';

/** Whether `command` runs here (a shell: `-c 'exit 0'`; others: `--version`). */
export function hasCommand(command: string, args: readonly string[] = ['-c', 'exit 0']): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** `describe`, run where `present`; else skipped (and named so), or failed under ENERGY_TESTS_REQUIRE_ALL=1. */
export function describeWhere(need: string, present: boolean, name: string, body: () => void): void {
  if (!present && REQUIRE_ALL) {
    describe(name, () => {
      it(`needs ${need}`, () => {
        throw new Error(
          `${need} is missing on this machine, and ENERGY_TESTS_REQUIRE_ALL=1 (CI) allows no skipped suite: install it (.ci/run does)`,
        );
      });
    });
    return;
  }
  describe.skipIf(!present)(present ? name : `${name} (no ${need} on this machine)`, body);
}
