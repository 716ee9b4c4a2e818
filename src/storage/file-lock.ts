/**
 * An exclusive lock between processes: a lock file created with O_EXCL that names its holder (lock-holder.ts).
 * A holder on this host that is alive is never overtaken, however long it holds the lock: a slow run is
 * not a dead one, and overtaking it would let two runs buy the same thing. A holder gone from this host
 * is overtaken at once. Only a holder that cannot be checked (another host name: a shared folder seen
 * from another machine or container) is judged by age, after `staleMs`, and the caller is told. That age
 * is the lock file's on this machine's clock (its mtime), never the holder's own clock, which may be off.
 *
 * Our own rather than proper-lockfile: that one uses mkdir and refreshes the mtime on a timer, and can
 * only tell a dead holder by age; knowing the pid lets a crashed run's lock go at once.
 */
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { unlinkQuietly } from './durable-file.js';
import { PRIVATE_FILE_MODE } from './file-modes.js';
import {
  holderState,
  lockFileAgeMs,
  lockSystem,
  readHolder,
  startedOfSelf,
  type HolderState,
  type LockHolder,
  type LockSystem,
} from './lock-holder.js';

export type { LockHolder, LockSystem };

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock from another host older than this is taken over (default 30 s); a live local holder never is. */
  staleMs?: number;
  /** Told when a lock that could not be checked (another host) is taken over, with its file's age. */
  onTakeover?: (holder: LockHolder, ageMs: number) => void;
  /** Told once, when the lock is found held by a holder not taken over at once: this run waits for it. */
  onWait?: (holder: LockHolder, state: HolderState | undefined) => void;
  /** The host name written and compared (default os.hostname()); tests play two hosts in one process. */
  host?: string;
  /** The machine's look-ups (clock, pid, boot, process start times, sleep): tests replace some. */
  system?: Partial<LockSystem>;
}

export class LockTimeoutError extends Error {
  override name = 'LockTimeoutError';
  constructor(
    message: string,
    /** The holder when we gave up, if its file was readable. */
    readonly holder: LockHolder | undefined,
    /** True when the holder is on this host and alive; false when it could not be checked. */
    readonly holderAlive: boolean,
  ) {
    super(message);
  }
}

/** Tokens of the locks this process holds now: a lock file with our pid and another token is a past life's. */
const heldHere = new Set<string>();

/** Runs `work` while holding the lock at `lockPath`; the lock is released however `work` ends. */
export async function withFileLock<T>(
  lockPath: string,
  work: () => T | Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const token = await acquire(lockPath, options);
  heldHere.add(token);
  try {
    return await work();
  } finally {
    heldHere.delete(token);
    // Only our own lock: if it was taken over (another host judged it stale), the new holder's file stays.
    if (readHolder(lockPath)?.token === token) unlinkQuietly(lockPath);
  }
}

/** Creates the lock file naming `me`; false when it exists. */
function create(lockPath: string, me: LockHolder): boolean {
  try {
    const fd = openSync(lockPath, 'wx', PRIVATE_FILE_MODE);
    try {
      writeSync(fd, JSON.stringify(me));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/**
 * Moves the stale file aside rather than deleting it, and only if it still names the holder judged stale:
 * of two runs that both saw it stale, only one rename succeeds, and neither removes a fresh lock taken in
 * between by a third. True when this run moved it.
 */
function moveAside(lockPath: string, holder: LockHolder | undefined, token: string): boolean {
  const aside = `${lockPath}.stale-${token}`;
  let moved = false;
  try {
    if (readHolder(lockPath)?.token === holder?.token) {
      renameSync(lockPath, aside);
      moved = true;
    }
  } catch {
    // Someone else moved it first.
  }
  unlinkQuietly(aside);
  return moved;
}

async function acquire(lockPath: string, options: LockOptions): Promise<string> {
  const system = lockSystem({ ...(options.host !== undefined && { host: options.host }), ...options.system });
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const deadline = system.nowMs() + timeoutMs;
  const token = `${system.pid}-${system.nowMs()}-${system.random().toString(36).slice(2)}`;
  const me: LockHolder = { host: system.host, pid: system.pid, since: system.nowMs(), token, ...startedOfSelf(system) };
  let told = false;
  for (let attempt = 0; ; attempt += 1) {
    if (create(lockPath, me)) return token;
    const holder = readHolder(lockPath);
    const state = holder === undefined ? undefined : holderState(holder, system, heldHere);
    const ageMs = lockFileAgeMs(lockPath, system.nowMs());
    // A file with no readable holder for 2 s was left by a run killed between creating and writing it.
    const takeOver =
      holder === undefined
        ? ageMs !== undefined && ageMs > 2000
        : state === 'dead' || (state === 'unknown' && ageMs !== undefined && ageMs > staleMs);
    if (takeOver) {
      if (moveAside(lockPath, holder, token) && holder !== undefined && state === 'unknown')
        options.onTakeover?.(holder, ageMs ?? 0);
      continue;
    }
    if (system.nowMs() >= deadline) {
      const where = holder === undefined ? 'an unknown process' : `process ${holder.pid} on ${holder.host}`;
      throw new LockTimeoutError(`${lockPath} is held by ${where}`, holder, state === 'alive');
    }
    if (!told && holder !== undefined) {
      told = true;
      options.onWait?.(holder, state);
    }
    await system.sleep(Math.min(5 + attempt * 5, 50) + system.random() * 10);
  }
}
