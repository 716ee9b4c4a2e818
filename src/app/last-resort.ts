/**
 * The lines written outside any command (a bug, an unwritable stdout, a forced exit): shared by the entry's
 * fast path (cli.ts) and the process's run (process-run.ts), which the bundles carry.
 */
import { inCharset, utf8Locale } from '../output/charset.js';
import { terminalJson } from '../domain/printable.js';

/** Exit status when standard output cannot be written (a full disk): the command may have done its work. */
export const OUTPUT_FAILED = 7;

/** As main.ts decides it before the options are parsed: `--json` anywhere before a `--`. */
export function jsonRun(args: readonly string[]): boolean {
  return (args.includes('--') ? args.slice(0, args.indexOf('--')) : args).includes('--json');
}

/**
 * A line written here, outside the command: with --json one JSON object like every other stderr line,
 * `{"error":{…}}` as error-report.ts writes them or `{"note":{…}}`.
 */
export function lastResortLine(json: boolean, message: string, exitCode: number | undefined): string {
  if (json)
    return `${terminalJson(
      exitCode === undefined
        ? { note: { message } }
        : { error: { exit_code: exitCode, message, hint: null, problem: null } },
    )}\n`;
  return inCharset(`energy: ${exitCode === undefined ? '' : 'error: '}${message}\n`, utf8Locale(process.env));
}

/** The line for a standard output that cannot be written. */
export function outputError(json: boolean, error: NodeJS.ErrnoException): string {
  const reason =
    error.code === 'ENOSPC'
      ? 'no space left on the device'
      : error.code === 'EIO'
        ? 'input/output error'
        : (error.code ?? error.message);
  return lastResortLine(json, `cannot write to standard output: ${reason}`, OUTPUT_FAILED);
}
