/**
 * The state store a run uses: PostgreSQL when a `postgresql://` URL is configured (its driver loaded only
 * then), else the local state folder. Nothing is opened for a command that keeps no state.
 */
import { parseStateUrl } from '../config/state-url.js';
import type { StateStore } from './state-store.js';

export async function openStateStore(env: NodeJS.ProcessEnv, stateUrl: string | undefined): Promise<StateStore> {
  if (stateUrl === undefined) {
    const [{ LocalStore }, { stateDir }] = await Promise.all([
      import('./local-store.js'),
      import('../journal/state-dir.js'),
    ]);
    return new LocalStore(stateDir(env), env);
  }
  parseStateUrl(stateUrl);
  const { PgStore } = await import('./pg/pg-store.js');
  return PgStore.open(stateUrl, env);
}
