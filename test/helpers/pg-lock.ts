/** A session of the test's own on the private cluster, holding a lock in an open transaction until released. */
import pg from 'pg';
import type { Cluster } from './pg-cluster.js';

/** energy's sessions, by the application name they give (`energy/<version> <host> <pid>`). */
export const ENERGY_SESSIONS = "application_name LIKE 'energy/%' AND pid <> pg_backend_pid()";

/** Runs `lock` (e.g. `LOCK TABLE energy.journal IN ACCESS EXCLUSIVE MODE`) in a transaction left open. */
export async function holdLock(cluster: Cluster, lock: string): Promise<{ release(): Promise<void> }> {
  const holder = new pg.Client({
    host: cluster.socketDir,
    user: 'postgres',
    database: 'postgres',
    password: cluster.password,
    application_name: 'test-holder',
  });
  holder.on('error', () => undefined);
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query(lock);
  return {
    release: async () => {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    },
  };
}

/** The journal table locked by a session of the test's own while `work` runs; released after, whatever happens. */
export async function whileJournalLocked<T>(cluster: Cluster, work: () => Promise<T>): Promise<T> {
  const lock = await holdLock(cluster, 'LOCK TABLE energy.journal IN ACCESS EXCLUSIVE MODE');
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
