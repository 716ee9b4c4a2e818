/** Commands we print for the user to run next: the same context they gave, quoted for a POSIX shell. */

/** The global options of a run (`energy --profile … --json <command>`). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  tronNode?: string;
  stateUrl?: string;
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
    ...(globals.stateUrl === undefined ? [] : ['--state-url', shellQuote(globals.stateUrl)]),
    ...(globals.json === true ? ['--json'] : []),
  ];
}

/** `energy` with the --profile, --base-url and --json given to this run, then `words`, quoted for a shell. */
export function commandLine(globals: GlobalOptions, ...words: string[]): string {
  return ['energy', ...contextWords(globals), ...words.map(shellQuote)].join(' ');
}

/**
 * `energy`, the global options written right after it, then a command that acts on an account: not prose
 * ("energy never shows…", "another energy command"), not `sandbox` (it makes its own profile), and not the
 * config commands that take no --profile (`config delete-profile <name>` deletes the profile it names).
 */
const SUGGESTED_COMMAND =
  /(^|[\s`(:])energy((?: --(?:profile|base-url|state-url) (?:'[^']*'|[^\s`']+)| --json)*) (?=(?:time|balance|options|quote|order|address|estimate|ensure|spend|config|doctor|api|state)\b)(?!config (?:delete-profile|profiles|path)\b)/g;

/**
 * A hint's `energy …` commands with the user's --profile, --base-url and --json added where the hint did not
 * write them already: `energy --profile prod balance` without a key must suggest setting it in prod.
 */
export function withContext(hint: string, globals: GlobalOptions): string {
  const words = contextWords(globals);
  if (words.length === 0) return hint;
  return hint.replace(SUGGESTED_COMMAND, (_all, before: string, given: string) => {
    const add: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      const takesValue = word !== '--json';
      if (!given.includes(`${word} `) && !(word === '--json' && given.includes('--json'))) {
        add.push(takesValue ? `${word} ${words[i + 1]!}` : word);
      }
      if (takesValue) i++;
    }
    return `${before}energy${given}${add.map((w) => ` ${w}`).join('')} `;
  });
}
