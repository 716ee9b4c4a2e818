/**
 * An exclusive lock between processes: a lock file created with O_EXCL that names its holder (host, pid,
 * and on Linux the boot and the process's start time, so that a reused pid is not taken for the holder).
 * A holder on this host that is alive is never overtaken, however long it holds the lock: a slow run is
 * not a dead one, and overtaking it would let two runs buy the same thing. A holder gone from this host
 * is overtaken at once. Only a holder that cannot be checked (another host name: a shared folder seen
 * from another machine or container) is judged by age, after `staleMs`, and the caller is told.
 *
 * Our own rather than proper-lockfile: that one uses mkdir and refreshes the mtime on a timer, and can
 * only tell a dead holder by age; knowing the pid lets a crashed run's lock go at once.
 */
import { closeSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { sleep } from '../domain/sleep.js';
import { unlinkQuietly } from './durable-file.js';
import { PRIVATE_FILE_MODE } from './file-modes.js';

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock from another host older than this is taken over (default 30 s); a live local holder never is. */
  staleMs?: number;
  /** Told when a lock that could not be checked (another host) is taken over for its age. */
  onTakeover?: (holder: LockHolder) => void;
  /** The host name written and compared (default os.hostname()); tests play two hosts in one process. */
  host?: string;
}

/** Who holds a lock, as its file says. */
export interface LockHolder {
  host: string;
  pid: number;
  /** When it was taken (ms since the epoch). */
  since: number;
  token: string;
  /** `<boot id>:<start time in clock ticks>` on Linux: tells a live holder from a reused pid. */
  started?: string;
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

async function acquire(lockPath: string, options: LockOptions): Promise<string> {
  const host = options.host ?? hostname();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  const token = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const me: LockHolder = { host, pid: process.pid, since: Date.now(), token, ...startedOf('self') };
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx', PRIVATE_FILE_MODE);
      try {
        writeSync(fd, JSON.stringify(me));
      } finally {
        closeSync(fd);
      }
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(lockPath);
    const state = holder === undefined ? undefined : holderState(holder, host);
    const takeOver =
      holder === undefined
        ? unreadableForLong(lockPath)
        : state === 'dead' || (state === 'unknown' && Date.now() - holder.since > staleMs);
    if (takeOver) {
      // Move the stale file aside rather than deleting it: of two runs that both saw it stale, only one
      // rename succeeds, and neither can remove a fresh lock taken in between by a third.
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
      if (moved && holder !== undefined && state === 'unknown') options.onTakeover?.(holder);
      continue;
    }
    if (Date.now() >= deadline) {
      const where = holder === undefined ? 'an unknown process' : `process ${holder.pid} on ${holder.host}`;
      throw new LockTimeoutError(`${lockPath} is held by ${where}`, holder, state === 'alive');
    }
    await sleep(Math.min(5 + attempt * 5, 50) + Math.random() * 10);
  }
}

function readHolder(lockPath: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockHolder>;
    if (
      typeof parsed.host === 'string' &&
      Number.isSafeInteger(parsed.pid) &&
      Number.isSafeInteger(parsed.since) &&
      typeof parsed.token === 'string' &&
      (parsed.started === undefined || typeof parsed.started === 'string')
    ) {
      return parsed as LockHolder;
    }
  } catch {
    // Missing, or being written this very moment: treat as not (yet) readable.
  }
  return undefined;
}

/** A lock file with no readable holder for 2 s was left by a run killed between creating and writing it. */
function unreadableForLong(lockPath: string): boolean {
  try {
    return Date.now() - statSync(lockPath).mtimeMs > 2000;
  } catch {
    return false;
  }
}

/** alive or dead: checked on this host; unknown: the holder cannot be checked from here (another host). */
function holderState(holder: LockHolder, host: string): 'alive' | 'dead' | 'unknown' {
  if (holder.host !== host) return 'unknown';
  if (holder.pid === process.pid) return heldHere.has(holder.token) ? 'alive' : 'dead';
  const here = bootId();
  if (holder.started !== undefined && here !== undefined) {
    // Same name, another boot: this machine before a reboot, or another machine with the same name.
    if (!holder.started.startsWith(`${here}:`)) return 'unknown';
    // The pid is gone, or now belongs to a process started at another time: the holder is gone.
    return startedOf(holder.pid).started === holder.started ? 'alive' : 'dead';
  }
  try {
    process.kill(holder.pid, 0);
    return 'alive';
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'dead' : 'alive';
  }
}

let boot: string | null | undefined;
function bootId(): string | undefined {
  if (boot === undefined) {
    try {
      boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      boot = null;
    }
  }
  return boot ?? undefined;
}

/** `<boot id>:<start time>` of a process from /proc (Linux); nothing elsewhere or when it is gone. */
function startedOf(pid: number | 'self'): { started?: string } {
  const id = bootId();
  if (id === undefined) return {};
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted after the command name, which is in parentheses and may hold spaces.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start === undefined ? {} : { started: `${id}:${start}` };
  } catch {
    return {};
  }
}
