/** Commands we print for the user to run next: the same context they gave, quoted for a POSIX shell. */

/** The global options of a run (`energy --profile … --json <command>`). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  tronNode?: string;
  json?: boolean;
  verbose?: boolean;
  timeout?: number;
  retries?: number;
}

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

/** `energy` with the --profile and --base-url given to this run, then `words`, quoted for a shell. */
export function commandLine(globals: GlobalOptions, ...words: string[]): string {
  return ['energy', ...contextWords({ ...globals, json: false }), ...words.map(shellQuote)].join(' ');
}
