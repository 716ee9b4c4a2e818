/**
 * A folder ledger's turn: in a process one change at a time per ledger file, however its path is spelt (the
 * lock file alone cannot tell two holders of one process apart), and among processes the ledger's own lock
 * file (`….lock`, the state folder's O_EXCL lock: one holder among every process of the machine, and of
 * machines sharing the folder).
 */
import { dirname, resolve } from 'node:path';
import { ensurePrivateDir } from '../../config/permissions.js';
import { ConflictError } from '../../domain/cli-errors.js';
import { LockTimeoutError, withFileLock, type LockOptions } from '../../storage/file-lock.js';

const queues = new Map<string, Promise<unknown>>();

/** Runs `work` when it is this ledger file's turn, holding its lock file. */
export async function ledgerTurn<T>(path: string, lock: LockOptions | undefined, work: () => Promise<T>): Promise<T> {
  const key = resolve(path);
  const before = queues.get(key) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(() => locked(path, lock, work));
  queues.set(key, mine);
  try {
    return await mine;
  } finally {
    if (queues.get(key) === mine) queues.delete(key);
  }
}

async function locked<T>(path: string, lock: LockOptions | undefined, work: () => Promise<T>): Promise<T> {
  try {
    ensurePrivateDir(dirname(path), 'state');
    return await withFileLock(`${path}.lock`, work, { timeoutMs: 30_000, ...lock });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    throw new ConflictError(
      `the --max-spend ledger ${path} has been locked for 30 s (${error.message}): nothing ordered`,
      {
        hint: 'another energy is stuck holding it; a lock left by a process that died is taken over at once',
      },
    );
  }
}
