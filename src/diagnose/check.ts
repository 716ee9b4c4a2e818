/** One line of `energy doctor`: a check's name, ok / warn / fail, what it found, and what to do about it. */
import { CliError, ExitCode } from '../domain/errors.js';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
  hint: string | null;
  /** The exit code a failure stands for (3 credentials, 7 network, 2 local setup); not printed. */
  exitCode?: ExitCode | undefined;
}

export function ok(name: string, detail: string, hint: string | null = null): CheckResult {
  return { name, status: 'ok', detail, hint };
}

export function warn(name: string, detail: string, hint: string): CheckResult {
  return { name, status: 'warn', detail, hint };
}

/** A check that threw: its message and hint, and its exit code (an unexpected error counts as local setup). */
export function failed(name: string, error: unknown, hint?: string): CheckResult {
  if (error instanceof CliError)
    return { name, status: 'fail', detail: error.message, hint: error.hint ?? hint ?? null, exitCode: error.exitCode };
  const detail = error instanceof Error ? error.message : String(error);
  return { name, status: 'fail', detail, hint: hint ?? null, exitCode: ExitCode.usage };
}

/** Runs `check`, turning anything it throws into a failed result. */
export async function guarded(name: string, check: () => Promise<CheckResult> | CheckResult): Promise<CheckResult> {
  try {
    return await check();
  } catch (error) {
    return failed(name, error);
  }
}
