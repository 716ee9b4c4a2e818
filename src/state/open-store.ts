/**
 * The state store a run uses: PostgreSQL when a `postgresql://` URL is configured (its driver loaded only
 * then), else the local state folder. Nothing is opened for a command that keeps no state. A shared store
 * refuses this host's orders while its folder holds pending records the store does not (moving-in.ts).
 */
import { parseStateUrl } from '../config/state-url.js';
import type { StateStore } from './state-store.js';

export async function openStateStore(env: NodeJS.ProcessEnv, stateUrl: string | undefined): Promise<StateStore> {
  const { stateDir } = await import('../journal/state-dir.js');
  if (stateUrl === undefined) {
    const { LocalStore } = await import('./folder/local-store.js');
    return new LocalStore(stateDir(env), env);
  }
  parseStateUrl(stateUrl);
  const [{ PgStore }, { movingInCheck }] = await Promise.all([import('./pg/pg-store.js'), import('./moving-in.js')]);
  const store = await PgStore.open(stateUrl, env);
  store.guardOrdering(movingInCheck(store, stateDir(env)));
  return store;
}
