/**
 * The time limits every session to the shared state carries, so that a lock held elsewhere, a statement
 * that never ends or a decision frozen in a transaction fails the run (exit 11) or the service's cycle
 * instead of hanging it. Overridable as libpq users set server settings: `-c name=value` in the URL's
 * `options=` parameter, else in PGOPTIONS (the URL's `options` replaces PGOPTIONS, as in libpq). The other
 * options given there are sent on as they are.
 *
 * How they reach the server: as startup options of each session (no round trip); where the server refuses
 * startup options or drops them (PgBouncer, which passes only a few startup parameters, in transaction mode
 * shares one server session between clients), with SET LOCAL at the start of every transaction instead, so
 * that nothing relies on session state across transactions (pg-connect.ts decides which, once a run).
 */
export const LIMIT_NAMES = ['statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];
export type Limits = Record<LimitName, string>;

/**
 * statement_timeout: every statement energy runs is a few rows by key; 30 s is ample, yet a service cycle
 * never stalls for minutes. lock_timeout: 10 s of waiting for a lock another session holds (a migration,
 * an operator's LOCK TABLE) is long enough that only something stuck hits it. idle_in_transaction: a
 * transaction left open 60 s by a frozen or killed host is ended by the server, releasing its locks.
 */
export const DEFAULT_LIMITS: Readonly<Limits> = {
  statement_timeout: '30s',
  lock_timeout: '10s',
  idle_in_transaction_session_timeout: '60s',
};

/** The limits in effect (ours, overridden by `-c` options) and the options that are not ours. */
export function limitsFrom(options: string | undefined): { limits: Limits; otherOptions: string[] } {
  const limits: Limits = { ...DEFAULT_LIMITS };
  const otherOptions: string[] = [];
  const words = splitOptions(options ?? '');
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    // `-c name=value`, `-cname=value` and `--name=value`, as the server reads them.
    const setting =
      word === '-c' && i + 1 < words.length
        ? words[++i]!
        : word.startsWith('-c') || word.startsWith('--')
          ? word.slice(2)
          : undefined;
    if (setting === undefined) {
      otherOptions.push(word);
      continue;
    }
    const at = setting.indexOf('=');
    const name = setting.slice(0, Math.max(at, 0)).toLowerCase().replaceAll('-', '_');
    const known = LIMIT_NAMES.find((limit) => limit === name);
    if (known !== undefined) limits[known] = setting.slice(at + 1);
    else otherOptions.push('-c', setting);
  }
  return { limits, otherOptions: otherOptions.filter((word) => word !== '') };
}

/** The startup `options` value: the limits as `-c` settings, then the others, escaped as the server splits them. */
export function startupOptions(limits: Limits | undefined, otherOptions: readonly string[]): string {
  const ours = limits === undefined ? [] : LIMIT_NAMES.flatMap((name) => ['-c', `${name}=${limits[name]}`]);
  const words = [...ours, ...otherOptions];
  return words.map((word) => word.replace(/([\\\s])/g, '\\$1')).join(' ');
}

/** One statement setting the limits for the current transaction only (what PgBouncer's sharing allows). */
export function setLocal(limits: Limits): string {
  return LIMIT_NAMES.map((name) => `SET LOCAL ${name} = '${limits[name].replaceAll("'", "''")}'`).join('; ');
}

/** pg_split_opts: words split on unescaped blanks, `\` escaping the next character. */
function splitOptions(text: string): string[] {
  const words: string[] = [];
  let word = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length) word += text[++i];
    else if (/\s/.test(char)) {
      if (word !== '') words.push(word);
      word = '';
    } else word += char;
  }
  if (word !== '') words.push(word);
  return words;
}
