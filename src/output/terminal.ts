import type { Readable, Writable } from 'node:stream';

/** The streams and environment of one run; tests and the library pass their own. */
export interface Terminal {
  /** `columns`: the terminal's width, when it is one. */
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: NodeJS.ProcessEnv;
  /** The file this run was started as (`process.argv[1]`): completion scripts call it back for profile names. */
  program?: string | undefined;
  /**
   * Aborted on SIGINT, SIGTERM or SIGHUP, with the signal's name as its reason, or an InterruptedError for it (the
   * process's own: process-run.ts).
   */
  interrupt?: AbortSignal;
  /**
   * Ends the process at once with `code` (a second signal to `ensure --every`): the entry's own exit, which
   * knows the status was decided, so its backstop does not report exit 1 "stopped before finishing".
   */
  exit?: (code: number) => void;
}

/**
 * Colour depth for a stream: NO_COLOR (any non-empty value) turns colour off, FORCE_COLOR turns it on
 * (0 or false: off), otherwise colour only on a terminal that is not "dumb".
 */
export function colorLevel(env: NodeJS.ProcessEnv, isTTY: boolean | undefined): 0 | 1 | 2 | 3 {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    const level = Number.parseInt(force, 10);
    return level === 2 || level === 3 ? level : 1;
  }
  return isTTY === true && env.TERM !== 'dumb' ? 1 : 0;
}
