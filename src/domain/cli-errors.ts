/**
 * The errors only the command line meets (the library's are in errors.ts): refusals before anything is sent,
 * orders that failed, batches and `ensure` runs with failures, interrupts, and the failures of reading a
 * user's input. Each carries an exit code of the contract; `app/main.ts` alone turns it into a status.
 */
import { CliError, ExitCode, UsageError } from './errors.js';
import { clause } from './printable.js';

/** Something local is wrong with the input or the machine's setup (a private file open to others): nothing was sent. */
export class UnsafeFileError extends CliError {
  override name = 'UnsafeFileError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.usage, options);
  }
}

/** Refused on purpose before anything was placed: a price above --max-total, an id used for another order, a busy lock. */
export class ConflictError extends CliError {
  override name = 'ConflictError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.conflict, options);
  }
}

/** A server other than the API (a TRON node) limits or refuses our rate. */
export class RateLimitedError extends CliError {
  override name = 'RateLimitedError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.rateLimited, options);
  }
}

/** Something the user named does not exist, found out without the API's 404 (e.g. a short id no order has). */
export class NotFoundError extends CliError {
  override name = 'NotFoundError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.notFound, options);
  }
}

/** A request the TRON node answered with an error of its own (java-tron's `{"Error": …}`). */
export class TronNodeError extends CliError {
  override name = 'TronNodeError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.service, options);
  }
}

/** The order is final and did not deliver (a failure, a lifecycle that ended first, energy that never arrived). */
export class OrderFailedError extends CliError {
  override name = 'OrderFailedError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.orderFailed, options);
  }
}

/** Some lines of a batch or addresses of `ensure` failed; the others stand. */
export class SomeFailedError extends CliError {
  override name = 'SomeFailedError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.someFailed, options);
  }
}

/** Not the user's doing: a state the program should not reach. */
export class InternalError extends CliError {
  override name = 'InternalError';
  constructor(message: string) {
    super(message, ExitCode.internal);
  }
}

/** A failure said again with what it means here ("line 3: …"): its cause's exit code; an interrupt stays one. */
export class ContextualError extends CliError {
  override name = 'ContextualError';
  constructor(message: string, cause: CliError, options?: { hint?: string }) {
    super(message, cause.exitCode, { cause, hint: options?.hint, outcomeUncertain: cause.outcomeUncertain });
  }
}

/** A failure already reported in a row of the output (an address of `ensure`), said again as the run's error. */
export class ReportedFailureError extends CliError {
  override name = 'ReportedFailureError';
  constructor(failure: { message: string; exit_code: number }) {
    super(failure.message, toExitCode(failure.exit_code));
  }
}

function toExitCode(code: number): ExitCode {
  return (Object.values(ExitCode) as number[]).includes(code) ? (code as ExitCode) : ExitCode.internal;
}

/** The signals that end a run early, with the exit status a shell gives them (128 + number). */
export const SIGNAL_EXIT_CODES = {
  SIGHUP: ExitCode.hangup,
  SIGINT: ExitCode.interrupted,
  SIGTERM: ExitCode.terminated,
} as const;
export type InterruptSignal = keyof typeof SIGNAL_EXIT_CODES;

/** The user or a supervisor stopped the run (Ctrl-C, `timeout`, SIGTERM, a closed terminal). */
export class InterruptedError extends CliError {
  override name = 'InterruptedError';
  constructor(readonly signal: InterruptSignal) {
    super(`interrupted by ${signal}`, SIGNAL_EXIT_CODES[signal]);
  }
}

/** The run was stopped by a signal: the error itself, or one that wraps it (an order whose outcome it left unknown). */
export function isInterruption(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof InterruptedError) return true;
  return false;
}

/** An order request that may have reached the server, answer never received: the journal keeps it for recover. */
export class OrderOutcomeUnknownError extends CliError {
  override name = 'OrderOutcomeUnknownError';
  constructor(
    readonly clientRequestId: string,
    cause: CliError,
    recoverCommand: string,
  ) {
    super(
      `${clause(cause.message)}: the order with client_request_id ${clientRequestId} may or may not have been placed (it is in the journal)`,
      cause.exitCode,
      { cause, hint: `settle it (this never places a second order) with: ${recoverCommand}` },
    );
  }
}

/**
 * A simulated contract call that would fail on chain (e.g. a transfer from an address without the tokens):
 * the answer is about the input, not the network, so it is a usage error (exit 2) with its own message.
 */
export class TransferRevertedError extends CliError {
  override name = 'TransferRevertedError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.usage, options);
  }
}

/** `energy doctor` found a failure: its exit code is the first failed check's (3, 7 or 2), said as a summary. */
export class ChecksFailedError extends CliError {
  override name = 'ChecksFailedError';
  constructor(message: string, exitCode: ExitCode, options?: { hint?: string }) {
    super(message, exitCode, options);
  }
}

/**
 * A line of a batch file that is not a valid order. Every such line of a file is reported in one run
 * (checkBatch); a problem with the header, which no line can be read without, is a plain UsageError.
 */
export class BadLineError extends UsageError {
  override name = 'BadLineError';
  constructor(
    readonly source: string,
    readonly line: number,
    readonly problem: string,
    hint?: string,
  ) {
    super(`${source}, line ${line}: ${problem}: nothing was bought`, hint === undefined ? {} : { hint });
  }
}

/**
 * Why an input the user pointed the tool at cannot be read (storage/bounded-read.ts), in words to put after
 * its name: "no such file", "a named pipe, …". The caller says it again as the error of its own option.
 */
export class BoundedReadError extends Error {
  override name = 'BoundedReadError';
}

/**
 * Not a failure: a stop (SIGTERM, SIGINT) was asked for while a cycle of `ensure --every` was still reading,
 * so the cycle ends before it orders anything (service/serve.ts), and the service stops.
 */
export class StoppedBeforeOrderingError extends Error {
  override name = 'StoppedBeforeOrderingError';
  constructor() {
    super('stopped before ordering');
  }
}
