import { join } from 'node:path';

/** `ENERGY_STATE_DIR`, else `$XDG_STATE_HOME/energy`, else `~/.local/state/energy` (XDG's place for state). */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.ENERGY_STATE_DIR) return env.ENERGY_STATE_DIR;
  // HOME first: node:os is one more module to load, and homedir() reads HOME anyway where it is set.
  const base = env.XDG_STATE_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.local', 'state');
  return join(base, 'energy');
}

/**
 * The journal's folder inside the state folder: everything energy keeps there (the records and
 * `ensure.lock`) is in it, made 0700. The state folder itself may be any folder (a volume shared with
 * other programs); the journal's folder open to others is refused (exit 2), the same way on every run of
 * every command that uses it, whether or not that run would write.
 */
export function journalDir(stateFolder: string): string {
  return join(stateFolder, 'journal');
}

/**
 * `ensure`'s lock file, in the journal's folder: the folder is checked now, on every run (also one that buys
 * nothing), as every journal command does; it is made only when a run buys (the returned function).
 */
export async function ensureLockPath(env: NodeJS.ProcessEnv): Promise<() => Promise<string>> {
  const { assertPrivate, ensurePrivateDir } = await import('../config/permissions.js');
  const dir = journalDir(stateDir(env));
  assertPrivate(dir, 'folder', 'state');
  return async () => {
    ensurePrivateDir(dir, 'state');
    return join(dir, 'ensure.lock');
  };
}
