/**
 * withInterruptedErrors: a command's interrupt signal aborts with an InterruptedError, whether the terminal's
 * own aborts with a signal's name (a library caller, a test) or already with the error (the process's own,
 * which is then taken as it is: no second controller at every start).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { abortsWithInterruptedErrors, withInterruptedErrors } from '../../../src/app/failure.js';
import { InterruptedError } from '../../../src/domain/cli-errors.js';
import type { Terminal } from '../../../src/output/terminal.js';

function terminalWith(interrupt: AbortSignal): Terminal {
  return { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {}, interrupt };
}

describe('withInterruptedErrors', () => {
  it("turns a signal's name into an InterruptedError with its exit code", () => {
    const controller = new AbortController();
    const terminal = withInterruptedErrors(terminalWith(controller.signal));
    expect(terminal.interrupt).not.toBe(controller.signal);
    controller.abort('SIGTERM');
    expect(terminal.interrupt?.reason).toBeInstanceOf(InterruptedError);
    expect((terminal.interrupt?.reason as InterruptedError).exitCode).toBe(143);
  });

  it('keeps any other reason as it is', () => {
    const controller = new AbortController();
    const terminal = withInterruptedErrors(terminalWith(controller.signal));
    const reason = new Error('gone');
    controller.abort(reason);
    expect(terminal.interrupt?.reason).toBe(reason);
  });

  it('takes a signal that aborts with InterruptedErrors already as it is, and the same terminal', () => {
    const controller = new AbortController();
    const given = terminalWith(abortsWithInterruptedErrors(controller.signal));
    const terminal = withInterruptedErrors(given);
    expect(terminal).toBe(given);
    controller.abort(new InterruptedError('SIGINT'));
    expect((terminal.interrupt?.reason as InterruptedError).exitCode).toBe(130);
  });
});
