/**
 * The state store a run uses: PostgreSQL when a `postgresql://` URL is configured (its driver loaded only
 * then), else the local state folder. Nothing is opened for a command that keeps no state. A shared store
 * refuses this host's orders while its folder holds pending records the store does not (moving-in.ts). The
 * URL comes read and checked (config/state-url.ts), and goes down to the sessions as that one value.
 */
import type { StateUrl } from '../config/state-url.js';
import type { StateStore } from './state-store.js';

export async function openStateStore(env: NodeJS.ProcessEnv, stateUrl: StateUrl | undefined): Promise<StateStore> {
  const { stateDir } = await import('../journal/state-dir.js');
  if (stateUrl === undefined) {
    const { LocalStore } = await import('./folder/local-store.js');
    return new LocalStore(stateDir(env), env);
  }
  const { PgStore } = await import('./pg/pg-store.js');
  const store = await PgStore.open(stateUrl, env);
  // The check and the folder's journal and ledgers it reads are loaded when an order is first about to be
  // decided: a read such as `order pending` never asks it (they cost every run with a state URL ~1.5 ms of
  // CPU, node:fs/promises among them; issue 48).
  let check: (() => Promise<void>) | undefined;
  store.guardOrdering(async () => {
    check ??= (await import('./moving-in.js')).movingInCheck(store, stateDir(env));
    return check();
  });
  return store;
}
