/**
 * An exclusive lock between processes: a lock file created with O_EXCL that names its holder (host and
 * pid). A lock left by a killed process is taken over at once when its holder is gone from this host, or
 * after `staleMs` whatever the host (a shared folder seen from another machine or container), so no
 * crash ever blocks later runs for long.
 *
 * Our own rather than proper-lockfile: that one uses mkdir and refreshes the mtime on a timer, and can
 * only tell a dead holder by age; knowing the pid lets a crashed run's lock go at once, in ~60 lines.
 */
import { closeSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { sleep } from '../domain/sleep.js';
import { unlinkQuietly } from './durable-file.js';

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this is taken over even when its holder cannot be checked (default 30 s). */
  staleMs?: number;
}

export class LockTimeoutError extends Error {
  override name = 'LockTimeoutError';
}

/** Runs `work` while holding the lock at `lockPath`; the lock is released however `work` ends. */
export async function withFileLock<T>(
  lockPath: string,
  work: () => T | Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const token = await acquire(lockPath, options.timeoutMs ?? 10_000, options.staleMs ?? 30_000);
  try {
    return await work();
  } finally {
    // Only our own lock: if it was taken over as stale, the new holder's file stays.
    if (readHolder(lockPath)?.token === token) unlinkQuietly(lockPath);
  }
}

interface Holder {
  host: string;
  pid: number;
  since: number;
  token: string;
}

async function acquire(lockPath: string, timeoutMs: number, staleMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const token = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const me: Holder = { host: hostname(), pid: process.pid, since: Date.now(), token };
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
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
    if (holder === undefined ? unreadableForLong(lockPath) : isStale(holder, staleMs)) {
      // Move the stale file aside rather than deleting it: of two runs that both saw it stale, only one
      // rename succeeds, and neither can remove a fresh lock taken in between by a third.
      const aside = `${lockPath}.stale-${token}`;
      try {
        if (readHolder(lockPath)?.token === holder?.token) renameSync(lockPath, aside);
      } catch {
        // Someone else moved it first.
      }
      unlinkQuietly(aside);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new LockTimeoutError(`${lockPath} is held by process ${holder?.pid ?? '?'} on ${holder?.host ?? '?'}`);
    }
    await sleep(Math.min(5 + attempt * 5, 50) + Math.random() * 10);
  }
}

function readHolder(lockPath: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<Holder>;
    if (
      typeof parsed.host === 'string' &&
      Number.isSafeInteger(parsed.pid) &&
      Number.isSafeInteger(parsed.since) &&
      typeof parsed.token === 'string'
    ) {
      return parsed as Holder;
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

function isStale(holder: Holder, staleMs: number): boolean {
  if (Date.now() - holder.since > staleMs) return true;
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
