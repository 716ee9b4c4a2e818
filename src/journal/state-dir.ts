import { join } from 'node:path';

/** `ENERGY_STATE_DIR`, else `$XDG_STATE_HOME/energy`, else `~/.local/state/energy` (XDG's place for state). */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.ENERGY_STATE_DIR) return env.ENERGY_STATE_DIR;
  // HOME first: node:os is one more module to load, and homedir() reads HOME anyway where it is set.
  const base = env.XDG_STATE_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.local', 'state');
  return join(base, 'energy');
}
