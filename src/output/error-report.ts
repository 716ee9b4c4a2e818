/**
 * How a failure looks on stderr: one line `energy: error: …` plus a hint, or with --json one JSON object of
 * one shape, `{"error":{"exit_code","message","hint","problem"}}`, where `problem` is the server's Problem
 * Details body (scrubbed of credentials) or null. Never a stack trace unless --verbose.
 */
import type { ExitCode } from '../domain/errors.js';
import { escapeControls, escapeInLines, terminalJson } from '../domain/printable.js';
import type { Terminal } from './terminal.js';
import { inCharset, utf8Locale } from './charset.js';

export interface ErrorReport {
  message: string;
  exitCode: ExitCode;
  hint?: string | undefined;
  /** Extra detail shown only with --verbose (a stack trace for a bug). */
  detail?: string | undefined;
  /** The server's Problem Details body, when it sent one: for --json only. */
  problem?: unknown;
}

/** The one JSON shape of an error on stderr with --json. */
export interface JsonErrorReport {
  error: { exit_code: ExitCode; message: string; hint: string | null; problem: unknown };
}

export function writeErrorReport(
  terminal: Terminal,
  report: ErrorReport,
  options: { json: boolean; verbose: boolean },
): void {
  if (options.json) {
    const body: JsonErrorReport = {
      error: {
        exit_code: report.exitCode,
        message: report.message,
        hint: report.hint ?? null,
        problem: report.problem ?? null,
      },
    };
    terminal.stderr.write(`${terminalJson(body)}\n`);
    return;
  }
  // Messages quote the server and the user: no control character reaches the terminal raw. Our … → ≥ ’
  // become ASCII under a locale that cannot show them (LANG=C): --json above keeps them exact.
  const utf8 = utf8Locale(terminal.env);
  terminal.stderr.write(`energy: error: ${inCharset(escapeControls(report.message), utf8)}\n`);
  if (report.hint !== undefined) terminal.stderr.write(`hint: ${inCharset(escapeControls(report.hint), utf8)}\n`);
  if (options.verbose && report.detail !== undefined) terminal.stderr.write(`${escapeInLines(report.detail)}\n`);
}
