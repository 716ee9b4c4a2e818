/**
 * Who holds a lock file, and whether that holder is alive: checked on this host (the pid, and on Linux the
 * boot and the process's start time, so that a reused pid is not taken for the holder), or unknown (another
 * host name: a shared folder seen from another machine or container). The look-ups are the machine's
 * (`LockSystem`), passed in so that tests can play a container's PID 1, another boot or a reused pid.
 */
import { readFileSync, statSync } from 'node:fs';
import { readRegularFileSync } from './bounded-read.js';
import { hostname } from 'node:os';
import { sleep } from '../domain/sleep.js';

/** Who holds a lock, as its file says. */
export interface LockHolder {
  host: string;
  pid: number;
  /** When it was taken (ms since the epoch), on the holder's own clock: shown, never used to judge age. */
  since: number;
  token: string;
  /** `<boot id>:<start time in clock ticks>` on Linux: tells a live holder from a reused pid. */
  started?: string;
}

/** What a lock asks of the machine; each can be replaced (tests). */
export interface LockSystem {
  host: string;
  pid: number;
  /** This machine's clock, the one a lock file's mtime is compared with. */
  nowMs: () => number;
  /** The kernel's boot id (Linux), or undefined elsewhere. */
  bootId: () => string | undefined;
  /** `<boot id>:<start time>` of a live process (Linux), or undefined when it is gone or cannot be read. */
  startedOf: (pid: number) => string | undefined;
  /** A process with this pid exists (under any user). */
  pidAlive: (pid: number) => boolean;
  sleep: (ms: number) => Promise<unknown>;
  random: () => number;
}

export type HolderState = 'alive' | 'dead' | 'unknown';

export function readHolder(lockPath: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readRegularFileSync(lockPath)) as Partial<LockHolder>;
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

/**
 * How old the lock file is on this machine's clock (its mtime: set when it was created, by the file system
 * this machine reads it from), or undefined when it is gone. A holder's own `since` is on its own clock,
 * which may run ahead of ours by days: judging by it would keep a dead holder's lock for as long.
 */
export function lockFileAgeMs(lockPath: string, nowMs: number): number | undefined {
  try {
    return nowMs - statSync(lockPath).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * alive or dead: checked on this host; unknown: the holder cannot be checked from here (another host name,
 * or this host's name from another boot: this machine before a reboot, or another machine of that name).
 */
export function holderState(holder: LockHolder, system: LockSystem, heldHere: ReadonlySet<string>): HolderState {
  if (holder.host !== system.host) return 'unknown';
  // Our own pid with a token we do not hold is a past life's (a container's PID 1 is every run's pid).
  if (holder.pid === system.pid) return heldHere.has(holder.token) ? 'alive' : 'dead';
  const boot = system.bootId();
  if (holder.started !== undefined && boot !== undefined) {
    if (!holder.started.startsWith(`${boot}:`)) return 'unknown';
    // The pid is gone, or now belongs to a process started at another time: the holder is gone.
    return system.startedOf(holder.pid) === holder.started ? 'alive' : 'dead';
  }
  return system.pidAlive(holder.pid) ? 'alive' : 'dead';
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

/** `<boot id>:<start time>` of a process from /proc (Linux); undefined elsewhere or when it is gone. */
function startedOf(pid: number): string | undefined {
  const id = bootId();
  if (id === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted after the command name, which is in parentheses and may hold spaces.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start === undefined ? undefined : `${id}:${start}`;
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** This machine, with `overrides` in place of its look-ups. */
export function lockSystem(overrides: Partial<LockSystem> = {}): LockSystem {
  return {
    host: overrides.host ?? hostname(),
    pid: overrides.pid ?? process.pid,
    nowMs: overrides.nowMs ?? Date.now,
    bootId: overrides.bootId ?? bootId,
    startedOf: overrides.startedOf ?? startedOf,
    pidAlive: overrides.pidAlive ?? pidAlive,
    sleep: overrides.sleep ?? sleep,
    random: overrides.random ?? Math.random,
  };
}

/** What a new holder writes of itself: its start time as `startedOf` reads it for others. */
export function startedOfSelf(system: LockSystem): { started?: string } {
  const started = system.startedOf(system.pid);
  return started === undefined ? {} : { started };
}
