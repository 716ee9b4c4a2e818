/**
 * `ensure --every <duration>`: the same run again and again, a long-running service instead of cron. Each
 * cycle reads, counts what is in flight and buys the shortfall, exactly as one run does. A failure of the
 * moment (the network, any answer of the API, a 400 included, the TRON node, another run holding the lock)
 * is logged and the next cycle tries again; one that another cycle cannot cure (our own input or config
 * refused before anything was sent, credentials, a bug) ends the service with its exit code. A stop request
 * (SIGTERM, SIGINT) is honoured between cycles: the cycle in flight, and any order in it, finishes and is
 * journaled first.
 */
import { ApiError, CliError, ExitCode } from '../domain/errors.js';
import { isInterruption, StoppedBeforeOrderingError } from '../domain/cli-errors.js';
import type { EnsureItem } from '../ensure/ensure-types.js';

/** What one cycle reports: `items` as a single run's, or the failure that ended the cycle early. */
export interface CycleReport {
  cycle: number;
  at: string;
  items: EnsureItem[];
  error?: { exit_code: number; message: string };
}

export interface StopSwitch {
  /** True once a stop was asked for. */
  readonly requested: boolean;
  /** Waits `ms`, or less when a stop is asked for meanwhile. */
  wait(ms: number): Promise<void>;
}

export interface ServiceInput {
  everyMs: number;
  cycle: () => Promise<EnsureItem[]>;
  report: (report: CycleReport) => Promise<void>;
  note: (line: string) => void;
  stop: StopSwitch;
  /** The wall clock, for each report's `at`. */
  nowMs?: () => number;
  /**
   * The clock cycles are spaced on: monotonic (performance.now), so that a host clock stepped back or forward
   * neither stalls the service nor runs cycles back to back (issue 44). A test's `nowMs` serves when given.
   */
  monoMs?: () => number;
  random?: () => number;
}

/**
 * What another cycle cannot cure: a bug, a stop, credentials (exit 3), and a usage error of our own (exit 2:
 * the input or config refused here). An API's answer is its word at that moment, whatever its status: a
 * 400 on the options or a quote (exit 2 for a single run) waits for the next cycle like a 503 does.
 */
export function endsService(error: unknown): boolean {
  if (!(error instanceof CliError) || isInterruption(error)) return true;
  if (error.exitCode === ExitCode.internal || error.exitCode === ExitCode.auth) return true;
  return error.exitCode === ExitCode.usage && !answeredByApi(error);
}

function answeredByApi(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof ApiError) return true;
  return false;
}

/** Cycles start `everyMs` apart, give or take this share, so that hosts on one schedule drift apart. */
const JITTER = 0.1;

/** Runs cycles until a stop is asked for (resolves: exit 0) or a fatal failure (rejects with it). */
export async function runService(input: ServiceInput): Promise<number> {
  const now = input.nowMs ?? Date.now;
  const mono = input.monoMs ?? input.nowMs ?? (() => performance.now());
  const random = input.random ?? Math.random;
  let cycle = 0;
  while (!input.stop.requested) {
    cycle += 1;
    const started = mono();
    const at = new Date(now()).toISOString();
    try {
      await input.report({ cycle, at, items: await input.cycle() });
    } catch (error) {
      if (error instanceof StoppedBeforeOrderingError) {
        input.note(`energy: stopped in cycle ${cycle}, before it ordered anything`);
        return cycle - 1;
      }
      if (!(error instanceof CliError) || endsService(error)) throw error;
      const failure = { exit_code: error.exitCode, message: error.message };
      input.note(`energy: cycle ${cycle} failed (exit ${error.exitCode}): ${error.message}; trying again next cycle`);
      await input.report({ cycle, at, items: [], error: failure });
    }
    if (input.stop.requested) break;
    const spacing = input.everyMs * (1 - JITTER + 2 * JITTER * random());
    await input.stop.wait(Math.max(0, started + spacing - mono()));
  }
  input.note(cycle === 0 ? 'energy: stopped before its first cycle' : `energy: stopped after cycle ${cycle}`);
  return cycle;
}
