/** The error taxonomy: one class per exit code the contract uses, and interrupts known by type. */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  CliError,
  ExitCode,
  MissingCredentialsError,
  NetworkError,
  ResponseShapeError,
  UsageError,
  WaitTimeoutError,
} from '../../src/domain/errors.js';
import {
  ConflictError,
  ContextualError,
  InternalError,
  InterruptedError,
  OrderFailedError,
  OrderOutcomeUnknownError,
  RateLimitedError,
  ReportedFailureError,
  SomeFailedError,
  TransferRevertedError,
  TronNodeError,
  UnsafeFileError,
  isInterruption,
} from '../../src/domain/cli-errors.js';
import { JournalWriteError, OrderUnrecordedError } from '../../src/domain/journal-errors.js';

describe('a class per exit code', () => {
  it.each([
    [new InternalError('x'), ExitCode.internal],
    [new UsageError('x'), ExitCode.usage],
    [new UnsafeFileError('x'), ExitCode.usage],
    [new TransferRevertedError('x'), ExitCode.usage],
    [new AuthError('x'), ExitCode.auth],
    [new MissingCredentialsError(), ExitCode.auth],
    [new ApiError(404, 'x', undefined), ExitCode.notFound],
    [new ApiError(422, 'x', undefined), ExitCode.usage],
    [new ApiError(415, 'x', undefined), ExitCode.usage],
    [new ConflictError('x'), ExitCode.conflict],
    [new RateLimitedError('x'), ExitCode.rateLimited],
    [new NetworkError('x'), ExitCode.service],
    [new ResponseShapeError('x'), ExitCode.service],
    [new TronNodeError('x'), ExitCode.service],
    [new OrderFailedError('x'), ExitCode.orderFailed],
    [new SomeFailedError('x'), ExitCode.someFailed],
    [new WaitTimeoutError('o-1', 600, 'pending'), ExitCode.waitTimeout],
    [new InterruptedError('SIGHUP'), 129],
    [new InterruptedError('SIGINT'), 130],
    [new InterruptedError('SIGTERM'), 143],
  ])('%s exits %i', (error, code) => {
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(code);
  });

  it('exit 10 reads as the contract asks, and escapes the server-sent status', () => {
    const error = new WaitTimeoutError('o-1', 600, 'pending\u001b[2J', 'energy --profile p order wait o-1');
    expect(error.message).toBe(
      'order o-1 is still pending\\x1b[2J after 10m; `energy --profile p order wait o-1` follows it on',
    );
  });

  it('a failure said again keeps its exit code; a reported one keeps a known code only', () => {
    expect(new ContextualError('line 3: x', new ConflictError('x')).exitCode).toBe(ExitCode.conflict);
    expect(new ReportedFailureError({ message: 'x', exit_code: 8 }).exitCode).toBe(ExitCode.orderFailed);
    expect(new ReportedFailureError({ message: 'x', exit_code: 42 }).exitCode).toBe(ExitCode.internal);
  });

  it("only the API's own 401 carries status 401", () => {
    expect(new AuthError('bad signature', { status: 401 }).status).toBe(401);
    expect(new MissingCredentialsError().status).toBeUndefined();
  });
});

describe('isInterruption', () => {
  const interrupted = new InterruptedError('SIGINT');
  it.each([
    ['the interrupt itself', interrupted, true],
    ['an order whose outcome it left unknown', new OrderOutcomeUnknownError('r-1', interrupted, 'recover'), true],
    ['a failure said again', new ContextualError('placed, but following failed', interrupted), true],
    ['a network error', new NetworkError('reset'), false],
    ['another error with exit code 130', new ReportedFailureError({ message: 'x', exit_code: 130 }), false],
    ['not an error', 'SIGINT', false],
  ])('%s: %s', (_name, error, expected) => {
    expect(isInterruption(error)).toBe(expected);
  });
});

describe('an outcome in doubt is said where the error is built, and kept', () => {
  it('is false unless the error is built with it', () => {
    expect(new NetworkError('reset').outcomeUncertain).toBe(false);
    expect(new NetworkError('reset', { outcomeUncertain: true }).outcomeUncertain).toBe(true);
    expect(new ApiError(503, 'x', undefined, { outcomeUncertain: true }).outcomeUncertain).toBe(true);
    expect(new AuthError('x', { status: 401, outcomeUncertain: true }).outcomeUncertain).toBe(true);
    expect(new ResponseShapeError('x', { outcomeUncertain: true }).outcomeUncertain).toBe(true);
  });

  it("a failure said again keeps its cause's doubt, either way", () => {
    const uncertain = new NetworkError('reset', { outcomeUncertain: true });
    expect(new ContextualError('line 3: reset', uncertain).outcomeUncertain).toBe(true);
    expect(new ContextualError('line 3: refused', new NetworkError('refused')).outcomeUncertain).toBe(false);
  });

  it('an order placed but not recorded is in doubt for whoever catches it', () => {
    const error = new OrderUnrecordedError('r-1', 'o-1', new JournalWriteError('disk full'), 'recover r-1');
    expect(error.outcomeUncertain).toBe(true);
    expect(error.exitCode).toBe(ExitCode.service);
  });
});

describe('a message that goes on after a server’s text', () => {
  it('drops the full stop the server ended with, never doubling the punctuation', () => {
    const cause = new ApiError(
      500,
      'POST /v1/energy/orders failed: INTERNAL: the ledger is down for this test.',
      undefined,
    );
    const message = new OrderOutcomeUnknownError('r-1', cause, 'recover').message;
    expect(message).toContain('down for this test: the order with client_request_id r-1 may or may not');
    expect(message).not.toMatch(/\.[:;]/);
  });
});
