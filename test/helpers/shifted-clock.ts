/**
 * The environment that shifts a spawned CLI's clock (test/fixtures/shift-clock.cjs, preloaded with
 * NODE_OPTIONS --require): a host whose clock runs `shiftMs` ahead (negative: behind) of this one's.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The preload itself, for a test that joins it with other NODE_OPTIONS. @public */
export const SHIFT_CLOCK = fileURLToPath(new URL('../fixtures/shift-clock.cjs', import.meta.url));

/** Spread into a spawn's env; a test that also preloads something else joins the two NODE_OPTIONS itself. */
export function shiftedClockEnv(shiftMs: number): { NODE_OPTIONS: string; ENERGY_TEST_CLOCK_SHIFT_MS: string } {
  return { NODE_OPTIONS: `--require ${SHIFT_CLOCK}`, ENERGY_TEST_CLOCK_SHIFT_MS: String(shiftMs) };
}

/**
 * A spawned CLI whose host clock a test steps mid-run: the shift (ms) is read from `file` at every reading of
 * the clock, so writing it (`stepClock`) moves `Date.now()` and `new Date()` there at once; monotonic clocks
 * are untouched.
 */
export function steppedClockEnv(file: string): { NODE_OPTIONS: string; ENERGY_TEST_CLOCK_SHIFT_FILE: string } {
  return { NODE_OPTIONS: `--require ${SHIFT_CLOCK}`, ENERGY_TEST_CLOCK_SHIFT_FILE: file };
}

/** Steps the clock of every process started with `steppedClockEnv(file)` to `shiftMs` off. */
export function stepClock(file: string, shiftMs: number): void {
  writeFileSync(file, String(shiftMs));
}
