/**
 * This user's private cache folder, `$XDG_CACHE_HOME/energy` (else `~/.cache/energy`), made 0700 if missing: V8's
 * compiled code of the bundles (app/code-cache.ts) and the state store's startup hint (state/pg/pg-startup-hint.ts).
 * Used only when it is a real folder of this user that nobody else can write: what is kept there is run or
 * believed as it is, so it must come from this user alone.
 */
import type { Stats } from 'node:fs';

type Fs = typeof import('node:fs');

/** The private cache folder, made if missing; undefined when it cannot be made or is not ours alone. */
export function privateCacheDir(
  env: NodeJS.ProcessEnv,
  fs: Fs = process.getBuiltinModule('node:fs'),
): string | undefined {
  const path = process.getBuiltinModule('node:path');
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  // XDG: a relative XDG_CACHE_HOME is to be ignored.
  const xdg = env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  const home = env.HOME;
  if (xdg === undefined && (home === undefined || !path.isAbsolute(home))) return undefined;
  const dir = path.join(xdg ?? path.join(home!, '.cache'), 'energy');
  try {
    // There on every run but the first: one lstat, not a walk up the folders and two more.
    let stat = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (stat === undefined) {
      makeDirs(fs, dir);
      stat = fs.lstatSync(dir);
    }
    return isOurs(stat, uid) && stat.isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * mkdir -p, one level at a time, as config/permissions.ts does: Node 20's `mkdirSync(dir, { recursive: true })`
 * loops for ever at full CPU under a folder that refuses new entries with ENOENT, such as /proc (a HOME there
 * hung every command at start).
 */
function makeDirs(fs: Fs, dir: string): void {
  const path = process.getBuiltinModule('node:path');
  const missing: string[] = [];
  for (let current = dir; !fs.existsSync(current); current = path.dirname(current)) {
    missing.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      // A parallel run made it a moment ago: lstat below checks what it is.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Owned by this user, and writable by nobody else. */
export function isOurs(stat: Stats, uid: number): boolean {
  return stat.uid === uid && (stat.mode & 0o022) === 0;
}
