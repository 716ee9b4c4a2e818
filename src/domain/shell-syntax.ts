/**
 * How a command the user configures is run (`api-secret-command`, `ensure --on-event`): with shell syntax
 * it runs under /bin/sh (cmd.exe on Windows); a plain one runs directly, its words split on spaces, so
 * that a path or an argument is never read by a shell it was not written for.
 */

/** Shell syntax: a value with any of these runs under a shell; a plain one runs directly. */
const SHELL_SYNTAX = /[|&;<>()$`\\"'*?[\]{}~#!%\n]/;

export function needsShell(command: string): boolean {
  return SHELL_SYNTAX.test(command);
}

/** A plain command's words (program first). */
export function commandWords(command: string): string[] {
  return command.split(/\s+/).filter((word) => word !== '');
}
