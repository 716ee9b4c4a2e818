/**
 * `--on-event` checked at the start, as `--metrics` is: a program that is not there or cannot be run is
 * a usage error (exit 2) before any cycle, not every event lost in silence. The program is the command's
 * first word (under a shell too, unless it is the shell's own: `if`, `exec`, `.` …, or a variable set for
 * it, `A=1 cmd`); a name without a slash is looked for in PATH, as the shell would.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { UsageError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import { commandWords, needsShell } from '../domain/shell-syntax.js';

/** First words a shell runs itself: no program to look for. */
const SHELL_OWN = new Set(
  'if for while until case { ( ! . source set export cd eval exec command trap ulimit umask read unset shift wait true false echo printf test ['.split(
    ' ',
  ),
);

function runnable(path: string): 'ok' | 'missing' | 'not executable' {
  try {
    if (!statSync(path).isFile()) return 'not executable';
    accessSync(path, constants.X_OK);
    return 'ok';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'not executable';
  }
}

/** The program a hook command starts, or undefined when the shell runs the first word itself. */
export function hookProgram(command: string): string | undefined {
  const first = commandWords(command)[0];
  if (first === undefined) return undefined;
  if (!needsShell(command)) return first;
  if (SHELL_OWN.has(first) || first.includes('=') || !/^[\w./+-]+$/.test(first)) return undefined;
  return first;
}

export function checkHookCommand(command: string, env: NodeJS.ProcessEnv): void {
  const where = `--on-event ${printable(command, 200)}`;
  if (commandWords(command).length === 0) throw new UsageError(`${where}: the command is empty`);
  const program = hookProgram(command);
  if (program === undefined) return;
  let found: 'ok' | 'missing' | 'not executable' = 'missing';
  if (program.includes('/')) {
    found = runnable(program);
  } else {
    for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
      const state = runnable(join(dir, program));
      if (state === 'ok') return;
      if (state === 'not executable') found = state;
    }
  }
  if (found === 'ok') return;
  const shown = printable(program, 200);
  throw new UsageError(
    found === 'missing'
      ? `${where}: ${shown} was not found${program.includes('/') ? '' : ' in PATH'}`
      : `${where}: ${shown} is not an executable file`,
    { hint: 'give the hook as a path to an executable script (chmod +x), or a command in PATH' },
  );
}
