/**
 * Whether the startup options that carry the time limits reach a server (pg-connect.ts), remembered by this
 * host for a day: a pooler that refuses them (PgBouncer by default) costs each run a session refused before the
 * one it uses (~1.4 ms of CPU and a round trip, issue 48); one that drops them, a whole session made, checked and
 * closed. A host that met either connects the next time with the limits set by each transaction (SET LOCAL),
 * which holds against any server, and asks again after a day, so that a pooler taken away is noticed.
 * The note is an empty file named after the server, port, database and user (hashed), in the private cache
 * folder the code cache uses ($XDG_CACHE_HOME/energy, else ~/.cache/energy): only where that folder is this
 * user's alone, and only a regular file of this user counts. Nothing here may fail a run: any error means no note.
 */
import { isOurs, privateCacheDir } from '../../storage/private-cache-dir.js';
import type { PgpassTarget } from './pgpass.js';

/** How long a note is believed. */
export const HINT_MS = 24 * 60 * 60 * 1000;

export interface StartupHint {
  /** The server was found to refuse or drop the startup options less than a day ago. */
  readonly optionsLost: boolean;
  /** Remembers that it did (best effort). */
  note(): void;
}

export function startupHint(env: NodeJS.ProcessEnv, target: PgpassTarget): StartupHint {
  const file = hintFile(env, target);
  return {
    optionsLost: file !== undefined && isFresh(file),
    note: () => {
      if (file === undefined) return;
      try {
        process.getBuiltinModule('node:fs').writeFileSync(file, '', { mode: 0o600 });
      } catch {
        // Only a note.
      }
    },
  };
}

/** The note's path, in the private cache folder where there is one; else undefined. */
function hintFile(env: NodeJS.ProcessEnv, target: PgpassTarget): string | undefined {
  const dir = privateCacheDir(env);
  if (dir === undefined) return undefined;
  const { host, port, database, user } = target;
  const key = process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update([host, port, database, user].join('\0'))
    .digest('hex')
    .slice(0, 32);
  return process.getBuiltinModule('node:path').join(dir, `pg-startup-options-lost.${key}`);
}

function isFresh(file: string): boolean {
  try {
    const stat = process.getBuiltinModule('node:fs').lstatSync(file, { throwIfNoEntry: false });
    const uid = process.getuid?.();
    if (stat === undefined || uid === undefined || !stat.isFile() || !isOurs(stat, uid)) return false;
    // A file's time has a fraction of a millisecond that Date.now() has not; a note more than a minute in the
    // future (this machine's clock set back) is not believed either.
    const age = Date.now() - stat.mtimeMs;
    return age > -60_000 && age < HINT_MS;
  } catch {
    return false;
  }
}
