/**
 * The lock between runs: a holder alive on this host is never overtaken, however old its lock; a dead one
 * is at once; one from another host name only after `staleMs`, and then the old holder's release leaves
 * the new holder's lock alone.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockTimeoutError, withFileLock } from '../../../src/storage/file-lock.js';
import { liveProcess, startedOf } from '../../helpers/live-process.js';

let dir: string;
let lockPath: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-lock-'));
  lockPath = join(dir, 'ensure.lock');
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

const TWENTY_MINUTES = 20 * 60_000;

/** Sets the lock file's mtime `ms` in the past on this machine's clock. */
function ageFile(ms: number): void {
  const then = (Date.now() - ms) / 1000;
  utimesSync(lockPath, then, then);
}

describe('withFileLock', () => {
  it.each([
    ['with its start time', true],
    ['without a start time (an older lock file)', false],
  ])('never overtakes a live holder on this host, %s, however old its lock', async (_, withStart) => {
    const child = await liveProcess(children);
    const started = withStart ? startedOf(child.pid!) : undefined;
    writeFileSync(
      lockPath,
      JSON.stringify({ host: hostname(), pid: child.pid, since: Date.now() - TWENTY_MINUTES, token: 'other', started }),
    );
    let ran = false;
    const attempt = withFileLock(lockPath, () => (ran = true), { timeoutMs: 300, staleMs: 600_000 });
    await expect(attempt).rejects.toBeInstanceOf(LockTimeoutError);
    await attempt.catch((error: LockTimeoutError) => {
      expect(error.holderAlive).toBe(true);
      expect(error.holder?.pid).toBe(child.pid);
    });
    expect(ran).toBe(false);
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).token).toBe('other');
  });

  it('waits for a live holder and goes on once it is gone (taken over at once, not after staleMs)', async () => {
    const child = await liveProcess(children);
    writeFileSync(
      lockPath,
      JSON.stringify({
        host: hostname(),
        pid: child.pid,
        since: Date.now(),
        token: 'other',
        started: startedOf(child.pid!),
      }),
    );
    let exited = false;
    child.once('exit', () => (exited = true));
    const waitedFor: (string | undefined)[] = [];
    let ranAfterExit: boolean | undefined;
    await withFileLock(lockPath, () => (ranAfterExit = exited), {
      timeoutMs: 10_000,
      staleMs: 600_000,
      // Found held: the holder goes away only now.
      onWait: (_holder, state) => {
        waitedFor.push(state);
        child.kill();
      },
    });
    expect(waitedFor).toEqual(['alive']);
    expect(ranAfterExit).toBe(true);
    expect(existsSync(lockPath)).toBe(false);
  });

  it.skipIf(startedOf(process.pid) === undefined)(
    'a reused pid (another start time, read from /proc) is not the holder: taken over at once',
    async () => {
      const child = await liveProcess(children);
      const [boot] = startedOf(child.pid!)!.split(':');
      writeFileSync(
        lockPath,
        JSON.stringify({ host: hostname(), pid: child.pid, since: Date.now(), token: 'old', started: `${boot}:1` }),
      );
      expect(await withFileLock(lockPath, () => 'ran', { timeoutMs: 300 })).toBe('ran');
    },
  );

  it('a lock from another host name waits until its file is staleMs old, then is taken over and the caller told', async () => {
    writeFileSync(lockPath, JSON.stringify({ host: 'elsewhere', pid: 1, since: Date.now(), token: 'far' }));
    const young = withFileLock(lockPath, () => 'ran', { timeoutMs: 200, staleMs: 600_000 });
    await expect(young).rejects.toMatchObject({ holderAlive: false, holder: { host: 'elsewhere' } });
    ageFile(TWENTY_MINUTES);
    const told: [string, number][] = [];
    const result = await withFileLock(lockPath, () => 'ran', {
      timeoutMs: 200,
      staleMs: 600_000,
      onTakeover: (holder, ageMs) => told.push([holder.host, Math.round(ageMs / 60_000)]),
    });
    expect(result).toBe('ran');
    expect(told).toEqual([['elsewhere', 20]]);
  });

  it("a takeover followed by the old holder's release leaves the new holder's lock in place", async () => {
    let releaseOld!: () => void;
    const oldHolds = new Promise<void>((resolve) => (releaseOld = resolve));
    let oldInside!: () => void;
    const oldEntered = new Promise<void>((resolve) => (oldInside = resolve));
    const oldRun = withFileLock(
      lockPath,
      async () => {
        oldInside();
        await oldHolds;
      },
      { host: 'host-a' },
    );
    await oldEntered;
    const oldToken = JSON.parse(readFileSync(lockPath, 'utf8')).token;
    // Host B cannot check host A's process, and its staleMs says A's lock is too old.
    let newInside!: () => void;
    const newEntered = new Promise<void>((resolve) => (newInside = resolve));
    let releaseNew!: () => void;
    const newHolds = new Promise<void>((resolve) => (releaseNew = resolve));
    const newRun = withFileLock(
      lockPath,
      async () => {
        newInside();
        await newHolds;
      },
      { host: 'host-b', staleMs: 0, timeoutMs: 5000 },
    );
    await newEntered;
    const newToken = JSON.parse(readFileSync(lockPath, 'utf8')).token;
    expect(newToken).not.toBe(oldToken);
    releaseOld();
    await oldRun;
    expect(existsSync(lockPath)).toBe(true);
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).token).toBe(newToken);
    // A third run on host B finds the lock still held by a live holder.
    await expect(withFileLock(lockPath, () => 'ran', { host: 'host-b', timeoutMs: 100 })).rejects.toBeInstanceOf(
      LockTimeoutError,
    );
    releaseNew();
    await newRun;
    expect(existsSync(lockPath)).toBe(false);
    await sleep(0);
  });
});
