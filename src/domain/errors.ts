/**
 * The errors the library throws and exports (src/index.ts): every failed request is a `CliError` (the library's
 * `EnergyError`) with the exit code the command line gives it. The failures only the command line meets are in
 * cli-errors.ts, the journal's in journal-errors.ts: together, the errors module. Only `app/main.ts` turns an
 * error into a message and an exit status, and nothing outside these modules builds a `CliError` with a bare
 * exit code.
 */
import type { ProblemDetails } from './problem-details.js';
import { printable } from './printable.js';
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
  // The library exports this class as EnergyError (src/index.ts): the name its users see.
  override name = 'EnergyError';
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
 * A response value that breaks the spec's shape, at the path named in its message (client/shape.ts's
 * validators). Not exported by the library: the client says it again as a ResponseShapeError.
 */
export class ShapeMismatch extends Error {
  override name = 'ShapeMismatch';
}
