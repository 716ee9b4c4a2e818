/**
 * How the lock judges a holder, with the machine's look-ups replaced (the host name, our pid, the boot id,
 * process start times, the clock and the sleep): a container's PID 1 finding its own past life's lock, a
 * lock from before a reboot, a reused pid, and a fresh lock taken by a third run between the judgement and
 * the takeover. The clock is this machine's moved forward by each sleep, so no test waits.
 */
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockTimeoutError, withFileLock, type LockHolder, type LockSystem } from '../../../src/storage/file-lock.js';
import { fakeClock } from '../../helpers/fake-clock.js';

let dir: string;
let lockPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-lock-'));
  lockPath = join(dir, 'ensure.lock');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const BOOT = 'boot-b';

/** A machine `box` booted as BOOT, where `alive` pids run (started at tick = pid); sleeps move its clock. */
function machine(alive: number[], overrides: Partial<LockSystem> = {}): Partial<LockSystem> {
  const clock = fakeClock(Date.now());
  return {
    host: 'box',
    pid: 1,
    nowMs: clock.now,
    bootId: () => BOOT,
    startedOf: (pid) => (alive.includes(pid) ? `${BOOT}:${pid}` : undefined),
    pidAlive: (pid) => alive.includes(pid),
    sleep: clock.sleep,
    ...overrides,
  };
}

function holdBy(holder: Partial<LockHolder>, ageMs = 0): void {
  writeFileSync(lockPath, JSON.stringify({ host: 'box', pid: 4242, since: Date.now(), token: 'other', ...holder }));
  const then = (Date.now() - ageMs) / 1000;
  utimesSync(lockPath, then, then);
}

const tokenOnFile = () => (JSON.parse(readFileSync(lockPath, 'utf8')) as LockHolder).token;

describe('the lock judges its holder', () => {
  it("our own pid with a token we do not hold (a container's PID 1 after a restart) is a past life: taken over at once", async () => {
    holdBy({ pid: 1, token: 'past-life', started: `${BOOT}:1` });
    const waits: string[] = [];
    const ran = await withFileLock(lockPath, () => 'ran', {
      timeoutMs: 60_000,
      system: machine([1]),
      onWait: (holder) => waits.push(holder.token),
    });
    expect(ran).toBe('ran');
    expect(waits).toEqual([]);
  });

  it('a lock from another boot of this host name is judged by its age, not by a start time of this boot', async () => {
    // Pid 4242 runs now, started at another time: by start time the holder would be gone.
    holdBy({ pid: 4242, started: 'boot-a:100' });
    const young = withFileLock(lockPath, () => 'ran', { timeoutMs: 5_000, staleMs: 600_000, system: machine([4242]) });
    await expect(young).rejects.toMatchObject({ holderAlive: false, holder: { token: 'other' } });
    expect(tokenOnFile()).toBe('other');
    holdBy({ pid: 4242, started: 'boot-a:100' }, 11 * 60_000);
    const told: number[] = [];
    const old = await withFileLock(lockPath, () => 'ran', {
      staleMs: 600_000,
      system: machine([4242]),
      onTakeover: (_holder, ageMs) => told.push(Math.round(ageMs / 60_000)),
    });
    expect(old).toBe('ran');
    expect(told).toEqual([11]);
  });

  it('a reused pid (alive, started at another time in this boot) is not the holder: taken over at once', async () => {
    holdBy({ pid: 4242, started: `${BOOT}:1` });
    expect(await withFileLock(lockPath, () => 'ran', { timeoutMs: 0, system: machine([4242]) })).toBe('ran');
  });

  it('a live holder on this host, its lock a day old, is never taken over', async () => {
    holdBy({ pid: 4242, started: `${BOOT}:4242` }, 86_400_000);
    const attempt = withFileLock(lockPath, () => 'ran', { timeoutMs: 60_000, staleMs: 0, system: machine([4242]) });
    await expect(attempt).rejects.toMatchObject({ holderAlive: true });
  });

  it('without a start time, a pid that is gone is a dead holder and one that runs a live one', async () => {
    holdBy({ pid: 4242 });
    const live = withFileLock(lockPath, () => 'ran', { timeoutMs: 1_000, system: machine([4242]) });
    await expect(live).rejects.toBeInstanceOf(LockTimeoutError);
    expect(await withFileLock(lockPath, () => 'ran', { timeoutMs: 0, system: machine([]) })).toBe('ran');
  });

  it('a holder judged dead is moved aside only if the file still names it: a third run that took the lock meanwhile keeps it', async () => {
    holdBy({ pid: 7, token: 'dead-one', started: `${BOOT}:7` });
    let third = false;
    const system = machine([8], {
      // Looking up the dead holder is the moment a third run (pid 8) takes the lock over before us.
      startedOf: (pid) => {
        if (pid === 7 && !third) {
          third = true;
          holdBy({ pid: 8, token: 'third', started: `${BOOT}:8` });
        }
        return pid === 8 ? `${BOOT}:8` : undefined;
      },
    });
    const attempt = withFileLock(lockPath, () => 'ran', { timeoutMs: 5_000, system });
    await expect(attempt).rejects.toMatchObject({ holderAlive: true, holder: { token: 'third' } });
    expect(third).toBe(true);
    expect(tokenOnFile()).toBe('third');
  });
});
