/** Commands we print for the user to run next: the same context they gave, quoted for a POSIX shell. */
import type { GlobalOptions } from './context.js';

/** A word as a shell reads it: bare when plainly safe, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9._~=+/:@%,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The global options given to this run that decide where and how the next command runs: the same
 * account (--profile, --base-url) and the same output (--json).
 */
export function contextWords(globals: GlobalOptions): string[] {
  return [
    ...(globals.profile === undefined ? [] : ['--profile', shellQuote(globals.profile)]),
    ...(globals.baseUrl === undefined ? [] : ['--base-url', shellQuote(globals.baseUrl)]),
    ...(globals.json === true ? ['--json'] : []),
  ];
}
