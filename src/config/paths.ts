import { join } from 'node:path';

export const CONFIG_FILE_NAME = 'config.json';
export const OFFSET_FILE_NAME = 'clock-offset.json';

/** `ENERGY_CONFIG_DIR`, else `$XDG_CONFIG_HOME/energy`, else `~/.config/energy`. */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.ENERGY_CONFIG_DIR) return env.ENERGY_CONFIG_DIR;
  // HOME first: node:os is one more module to load, and homedir() reads HOME anyway where it is set.
  const base = env.XDG_CONFIG_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.config');
  return join(base, 'energy');
}
