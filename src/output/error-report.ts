/**
 * How a failure looks on stderr: one line `energy: error: …` plus a hint, or with --json one JSON object
 * (the server's Problem Details when it sent one). Never a stack trace unless --verbose.
 */
import { ApiError, AuthError, type ExitCode } from '../errors.js';
import { escapeControls } from '../printable.js';
import type { Terminal } from './terminal.js';

export interface ErrorReport {
  message: string;
  exitCode: ExitCode;
  hint?: string | undefined;
  /** Extra detail shown only with --verbose (a stack trace for a bug). */
  detail?: string | undefined;
}

export function writeErrorReport(terminal: Terminal, report: ErrorReport, error: unknown, options: { json: boolean; verbose: boolean }): void {
  if (options.json) {
    const problem = error instanceof ApiError || error instanceof AuthError ? error.problem : undefined;
    const body = problem ?? { error: { exit_code: report.exitCode, message: report.message, ...(report.hint && { hint: report.hint }) } };
    terminal.stderr.write(`${JSON.stringify(body)}\n`);
    return;
  }
  // Messages quote the server and the user: no control character reaches the terminal raw.
  terminal.stderr.write(`energy: error: ${escapeControls(report.message)}\n`);
  if (report.hint !== undefined) terminal.stderr.write(`hint: ${escapeControls(report.hint)}\n`);
  if (options.verbose && report.detail !== undefined) terminal.stderr.write(`${report.detail}\n`);
}
