/**
 * Typed errors. Every failure a user can cause or meet is one of these; each carries the exit code of the
 * contract, and only `main.ts` turns it into a message and an exit status.
 */

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
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** One per-field problem inside a Problem Details body. */
export interface ProblemError {
  code: string;
  field: string | null;
  message: string;
}

/** The API's error body (`application/problem+json`). */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  field?: string | null;
  errors?: ProblemError[] | null;
}

export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    options?: { cause?: unknown; hint?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options?.hint;
  }
  /** A follow-up line for the user: what to run or check next. */
  readonly hint: string | undefined;
  /**
   * Set by the transport when some attempt may have reached the server and been acted on (a reset or a
   * timeout after sending, a 5xx, an unreadable 2xx), whatever the last attempt's failure was: for an
   * order, it may exist.
   */
  outcomeUncertain = false;
}

/** Bad input caught locally: nothing was sent. */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.usage, options);
  }
}

/** No credentials, or credentials the server refused. */
export class AuthError extends CliError {
  override name = 'AuthError';
  constructor(message: string, options?: { hint?: string; problem?: ProblemDetails }) {
    super(message, ExitCode.auth, options);
    this.problem = options?.problem;
  }
  readonly problem: ProblemDetails | undefined;
}

/** The API answered with an error status. */
export class ApiError extends CliError {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly problem: ProblemDetails | undefined,
    options?: { hint?: string; retryAfterSeconds?: number },
  ) {
    super(message, exitCodeForStatus(status), options);
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
  readonly retryAfterSeconds: number | undefined;
}

/** The connection failed, timed out, or the response broke the spec. */
export class NetworkError extends CliError {
  override name = 'NetworkError';
  constructor(message: string, options?: { cause?: unknown; hint?: string }) {
    super(message, ExitCode.service, options);
  }
}

/** A response whose body does not have the shape the spec promises. */
export class ResponseShapeError extends CliError {
  override name = 'ResponseShapeError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.service, options);
  }
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

/**
 * An order request that may have reached the server, whose answer never arrived: the order may exist.
 * Its record stays in the journal until `energy order recover` settles it.
 */
export class OrderOutcomeUnknownError extends CliError {
  override name = 'OrderOutcomeUnknownError';
  constructor(
    readonly clientRequestId: string,
    cause: CliError,
    recoverCommand: string,
  ) {
    super(
      `${cause.message}: the order with client_request_id ${clientRequestId} may or may not have been placed (it is in the journal)`,
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
