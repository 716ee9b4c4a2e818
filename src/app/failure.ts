/**
 * What a failed run prints and its exit code: shared by the whole program (main.ts) and the light bundle's
 * balance and time (light-main.ts), which must fail alike. No commander here: the light bundle has none.
 */
import { scrubSecrets, scrubSecretsDeep } from '../client/redact.js';
import type { Context } from '../commands/context.js';
import { withContext } from '../commands/shell-words.js';
import { ApiError, AuthError, CliError, ExitCode } from '../domain/errors.js';
import { InterruptedError, SIGNAL_EXIT_CODES, type InterruptSignal } from '../domain/cli-errors.js';
import { writeErrorReport, type ErrorReport } from '../output/error-report.js';
import type { Terminal } from '../output/terminal.js';

/** A report, or `silent` when the error has been said already (a group alone prints its help). */
export type FailureReport = ErrorReport & { silent?: boolean };

/** Writes `report` (secrets scrubbed, the settings' hints added) and returns its exit code. */
export function reportFailure(
  error: unknown,
  report: FailureReport,
  ctx: Context,
  terminal: Terminal,
  argv: readonly string[],
): number {
  const secrets = ctx.knownCredentials();
  // Only for the API's own 401: a missing or unusable credential, or the TRON node's 401, is not a mismatch.
  const note =
    error instanceof AuthError && error.status === 401 ? ctx.settingsCache.credentialSourcesNote() : undefined;
  const hintText = report.hint ?? ctx.settingsCache.unreachableHint(error);
  const given = hintText === undefined ? undefined : withContext(hintText, ctx.globals);
  const hint = note === undefined ? given : `${note}; ${given ?? ''}`;
  const safe = {
    ...report,
    message: scrubSecrets(report.message, secrets),
    hint: hint && scrubSecrets(hint, secrets),
    problem: scrubSecretsDeep(
      error instanceof ApiError || error instanceof AuthError ? error.problem : undefined,
      secrets,
    ),
  };
  // Before the options are parsed (a usage error), the word on the command line is all there is to go by.
  const json = ctx.globals.json === true || (ctx.globals.json === undefined && argv.includes('--json'));
  if (report.silent !== true) writeErrorReport(terminal, safe, { json, verbose: ctx.globals.verbose === true });
  return report.exitCode;
}

/** The report of an error that is not commander's: ours with its exit code, anything else a bug. */
export function errorReport(error: unknown): FailureReport {
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode, hint: error.hint };
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `internal error: ${message}`,
    exitCode: ExitCode.internal,
    hint: 'this is a bug in energy: please report it with the output of --verbose',
    detail: error instanceof Error ? error.stack : undefined,
  };
}

/**
 * The terminal, its interrupt signal aborting with an InterruptedError. Its properties are copied as
 * descriptors, not spread: the entry's stdin is a getter, and creating process.stdin costs ~5 ms.
 */
export function withInterruptedErrors(terminal: Terminal): Terminal {
  if (terminal.interrupt === undefined || ABORTING_WITH_ERRORS.has(terminal.interrupt)) return terminal;
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(terminal)) as Terminal;
  copy.interrupt = asInterruptedError(terminal.interrupt);
  return copy;
}

/**
 * Signals that abort with an InterruptedError already (the process's own, process-run.ts): taken as they are,
 * without a second controller and listener at every start (issue 48).
 */
const ABORTING_WITH_ERRORS = new WeakSet<AbortSignal>();

/** `signal`, which aborts with an InterruptedError only: withInterruptedErrors takes it as it is. */
export function abortsWithInterruptedErrors(signal: AbortSignal): AbortSignal {
  ABORTING_WITH_ERRORS.add(signal);
  return signal;
}

/** The same signal, aborted with an InterruptedError: what a request in flight rejects with. */
function asInterruptedError(signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const forward = () => {
    const name = String(signal.reason);
    controller.abort(name in SIGNAL_EXIT_CODES ? new InterruptedError(name as InterruptSignal) : signal.reason);
  };
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  return controller.signal;
}
