/**
 * Typed errors: every failure a user can cause or meet is one of these classes, one (or more) per exit code
 * of the contract, and only `app/main.ts` turns it into a message and an exit status. Nothing outside this
 * module builds a `CliError` with a bare exit code.
 */
import type { ProblemDetails } from './problem-details.js';
import { clause, printable } from './printable.js';
import { formatDuration } from './duration.js';

/** Exit codes of the `energy` command-line contract. */
export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  rateLimited: 6,
  service: 7,
  orderFailed: 8,
  someFailed: 9,
  waitTimeout: 10,
  /** The shared state store (ENERGY_STATE_URL) cannot be reached or refuses: nothing was ordered. */
  stateStore: 11,
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

// The API's error body, carried by ApiError and AuthError; its own module, said here too for importers.
export type { ProblemDetails, ProblemError } from './problem-details.js';

/** What an error carries besides its message and exit code (see the fields of CliError). */
export type CliErrorOptions = { cause?: unknown; hint?: string | undefined; outcomeUncertain?: boolean | undefined };

export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    options?: CliErrorOptions,
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options?.hint;
    this.outcomeUncertain = options?.outcomeUncertain ?? false;
  }
  /** A follow-up line for the user: what to run or check next. */
  readonly hint: string | undefined;
  /**
   * Some attempt of a request that changes something may have reached the server and been acted on (a reset or a
   * timeout after sending, a 5xx, an unreadable 2xx): an order may exist. Said where the error is built, kept.
   */
  readonly outcomeUncertain: boolean;
}

/** Bad input caught locally: nothing was sent. */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.usage, options);
  }
}

/** Something local is wrong with the input or the machine's setup (a private file open to others): nothing was sent. */
export class UnsafeFileError extends CliError {
  override name = 'UnsafeFileError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.usage, options);
  }
}

/**
 * No credentials, unusable ones, or credentials a server refused. `status` is 401 only for the API's own
 * answer: the one case an order's journal records as "refused, 401" (anything local was never sent).
 */
export class AuthError extends CliError {
  override name = 'AuthError';
  constructor(message: string, options?: CliErrorOptions & { problem?: ProblemDetails; status?: 401 }) {
    super(message, ExitCode.auth, options);
    this.problem = options?.problem;
    this.status = options?.status;
  }
  readonly problem: ProblemDetails | undefined;
  readonly status: 401 | undefined;
}

/** No API key or secret where a signed call needs them: said one way wherever it is found. */
export class MissingCredentialsError extends AuthError {
  override name = 'MissingCredentialsError';
  constructor(message = 'no API credentials', hint?: string) {
    super(message, {
      hint:
        hint ??
        'set them with `energy config set api-key` and `energy config set api-secret`, or ENERGY_API_KEY and ENERGY_API_SECRET',
    });
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

/** The API answered with an error status. */
export class ApiError extends CliError {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly problem: ProblemDetails | undefined,
    options?: CliErrorOptions & { retryAfterSeconds?: number },
  ) {
    super(message, exitCodeForStatus(status), options);
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
  readonly retryAfterSeconds: number | undefined;
}

/** Something the user named does not exist, found out without the API's 404 (e.g. a short id no order has). */
export class NotFoundError extends CliError {
  override name = 'NotFoundError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.notFound, options);
  }
}

/** The connection failed, timed out, or the response broke the spec. */
export class NetworkError extends CliError {
  override name = 'NetworkError';
  constructor(message: string, options?: CliErrorOptions) {
    super(message, ExitCode.service, options);
  }
}

/** A response whose body does not have the shape the spec promises. */
export class ResponseShapeError extends CliError {
  override name = 'ResponseShapeError';
  constructor(message: string, options?: CliErrorOptions) {
    super(message, ExitCode.service, options);
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

/** `--wait` / `order wait` ran out of `--wait-timeout` with the order not final: the order stands. */
export class WaitTimeoutError extends CliError {
  override name = 'WaitTimeoutError';
  constructor(
    readonly orderId: string,
    readonly seconds: number,
    readonly status: string,
    waitCommand = `energy order wait ${orderId}`,
  ) {
    super(
      `order ${orderId} is still ${printable(status, 40)} after ${formatDuration(seconds * 1000)}; \`${waitCommand}\` follows it on`,
      ExitCode.waitTimeout,
      { hint: 'the order stands: do not order again' },
    );
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

/** Maps an HTTP error status to the contract's exit code. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 409) return ExitCode.conflict;
  if (status === 429) return ExitCode.rateLimited;
  if (status === 400 || status === 413 || status === 415 || status === 422) return ExitCode.usage;
  if (status >= 500) return ExitCode.service;
  // Any other 4xx is not in the spec: treat it as a response we cannot trust.
  return ExitCode.service;
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
