/**
 * One `ensure` at a time on a machine, from counting what is in flight to the last order journaled:
 * `<journal folder>/ensure.lock`. A holder alive on this machine is never overtaken, however slow (this run
 * waits, then gives up with nothing bought); a dead one is taken over at once; one from another host name
 * (a shared state folder) only when its lock file is older than ten minutes on this machine's clock (its
 * mtime: the other host's clock may be off), saying so. Across hosts, derived order ids keep one order per
 * need (need-id.ts); this lock only spares a machine's runs the same work.
 */
import { ConflictError } from '../../domain/cli-errors.js';
import { printable } from '../../domain/printable.js';
import { LockTimeoutError, withFileLock, type LockHolder, type LockSystem } from '../../storage/file-lock.js';

/** How long a run waits for another `ensure` to finish ordering. */
const LOCK_WAIT_MS = 60_000;
/** A lock from another host name that cannot be checked is taken over once its file is older than this. */
const OTHER_HOST_STALE_MS = 600_000;

export interface EnsureLockOptions {
  /** How long to wait for the holder (default 60 s): tests shorten it. */
  waitMs?: number;
  /** The machine's look-ups (clock, host name, pid, process start times): tests replace some. */
  system?: Partial<LockSystem>;
}

function holderName(holder: LockHolder): string {
  return `process ${holder.pid} on host ${printable(holder.host, 64)}`;
}

export async function withEnsureLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  note: (line: string) => void,
  options: EnsureLockOptions = {},
): Promise<T> {
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  try {
    return await withFileLock(lockPath, work, {
      timeoutMs: waitMs,
      staleMs: OTHER_HOST_STALE_MS,
      ...(options.system !== undefined && { system: options.system }),
      onWait: (holder, state) =>
        note(
          `energy: ${lockPath} is held by ${holderName(holder)}${state === 'alive' ? ' (alive on this machine)' : ''}: waiting up to ${Math.round(waitMs / 1000)} s for it`,
        ),
      onTakeover: (holder, ageMs) =>
        note(
          `energy: took over ${lockPath} from ${holderName(holder)}, its lock file ${Math.round(ageMs / 1000)} s old (another host: it cannot be checked from here, and it is older than ${OTHER_HOST_STALE_MS / 60_000} minutes)`,
        ),
    });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    const holder = error.holder;
    const who = holder === undefined ? 'a process' : `process ${holder.pid}`;
    const message = error.holderAlive
      ? `another energy ensure on this machine (${who}) has been ordering for over ${Math.round(waitMs / 1000)} s (${lockPath}): nothing bought`
      : `${lockPath} is held by ${who} on host ${printable(holder?.host ?? '?', 64)}, which cannot be checked from here (another machine or container sharing this state folder): nothing bought`;
    throw new ConflictError(message, {
      hint: error.holderAlive
        ? 'let it finish and run again; a lock left by a run that was killed is taken over at once'
        : `it is taken over once its file is ${OTHER_HOST_STALE_MS / 60_000} minutes old; give each host its own ENERGY_STATE_DIR`,
    });
  }
}
