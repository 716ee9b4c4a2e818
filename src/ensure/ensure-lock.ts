/**
 * One `ensure` at a time on a machine, from counting what is in flight to the last order journaled:
 * `<journal folder>/ensure.lock`. A holder alive on this machine is never overtaken, however slow (this run
 * waits, then gives up with nothing bought); a dead one is taken over at once; one from another host name
 * (a shared state folder) only when it is older than ten minutes, saying so. Across hosts, derived order
 * ids keep one order per need (need-id.ts); this lock only spares a machine's runs the same work.
 */
import { ConflictError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import { LockTimeoutError, withFileLock } from '../storage/file-lock.js';

/** How long a run waits for another `ensure` to finish ordering. */
const LOCK_WAIT_MS = 60_000;
/** A lock from another host name that cannot be checked is taken over after this. */
const OTHER_HOST_STALE_MS = 600_000;

export async function withEnsureLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  note: (line: string) => void,
): Promise<T> {
  try {
    return await withFileLock(lockPath, work, {
      timeoutMs: LOCK_WAIT_MS,
      staleMs: OTHER_HOST_STALE_MS,
      onTakeover: (holder) =>
        note(
          `energy: took over ${lockPath} from process ${holder.pid} on host ${printable(holder.host, 64)}, taken ${Math.round((Date.now() - holder.since) / 1000)} s ago (another host: it cannot be checked from here, and it is older than ${OTHER_HOST_STALE_MS / 60_000} minutes)`,
        ),
    });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    const holder = error.holder;
    const who = holder === undefined ? 'a process' : `process ${holder.pid}`;
    const message = error.holderAlive
      ? `another energy ensure on this machine (${who}) has been ordering for over ${LOCK_WAIT_MS / 1000} s (${lockPath}): nothing bought`
      : `${lockPath} is held by ${who} on host ${printable(holder?.host ?? '?', 64)}, which cannot be checked from here (another machine or container sharing this state folder): nothing bought`;
    throw new ConflictError(message, {
      hint: error.holderAlive
        ? 'let it finish and run again; a lock left by a run that was killed is taken over at once'
        : `it is taken over once it is ${OTHER_HOST_STALE_MS / 60_000} minutes old; give each host its own ENERGY_STATE_DIR`,
    });
  }
}
