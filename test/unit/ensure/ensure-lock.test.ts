/**
 * `ensure`'s lock: one from another host name is taken over once its file is ten minutes old on this
 * machine's clock, whatever the `since` its host wrote (a clock a day ahead included), and not before; a
 * live holder on this machine makes the run say that it waits, then give up with exit 5. The lock's clock
 * moves with each of its sleeps, so a 60 s wait takes no time.
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/domain/errors.js';
import { ConflictError } from '../../../src/domain/cli-errors.js';
import { withEnsureLock } from '../../../src/state/folder/ensure-lock.js';
import type { LockSystem } from '../../../src/storage/file-lock.js';
import { fakeClock } from '../../helpers/fake-clock.js';

let dir: string;
let lockPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-ensure-lock-'));
  lockPath = join(dir, 'ensure.lock');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const MINUTE = 60_000;

/** This machine, its clock moved forward by each sleep of the lock. */
function fastClock(overrides: Partial<LockSystem> = {}): Partial<LockSystem> {
  const clock = fakeClock(Date.now());
  return {
    nowMs: clock.now,
    sleep: clock.sleep,
    ...overrides,
  };
}

/** A lock written by `host`, its `since` on that host's clock, its file `ageMs` old on this machine's. */
function foreignLock(host: string, sinceMs: number, ageMs: number): void {
  writeFileSync(lockPath, JSON.stringify({ host, pid: 1, since: sinceMs, token: 'far' }), { mode: 0o600 });
  const then = (Date.now() - ageMs) / 1000;
  utimesSync(lockPath, then, then);
}

async function attempt(system = fastClock()): Promise<{ notes: string[]; outcome: unknown }> {
  const notes: string[] = [];
  const outcome = await withEnsureLock(
    lockPath,
    async () => 'bought',
    (line) => notes.push(line),
    { system },
  ).catch((error: unknown) => error);
  return { notes, outcome };
}

describe('the ensure lock', () => {
  it('a lock from another host whose file is 8 minutes old is not taken over: the run waits 60 s, then exit 5', async () => {
    foreignLock('old-container-7f3a', Date.now() - 8 * MINUTE, 8 * MINUTE);
    const { notes, outcome } = await attempt();
    expect(outcome).toBeInstanceOf(ConflictError);
    expect((outcome as ConflictError).exitCode).toBe(ExitCode.conflict);
    expect((outcome as ConflictError).message).toMatch(/held by process 1 on host old-container-7f3a.*nothing bought/);
    expect((outcome as ConflictError).hint).toMatch(/taken over once its file is 10 minutes old/);
    expect(notes).toEqual([
      expect.stringMatching(/is held by process 1 on host old-container-7f3a: waiting up to 60 s/),
    ]);
  });

  it('a lock whose host clock runs a day ahead (`since` in the future), its file 11 minutes old, is taken over', async () => {
    foreignLock('fast-clock-host', Date.now() + 24 * 60 * MINUTE, 11 * MINUTE);
    const { notes, outcome } = await attempt();
    expect(outcome).toBe('bought');
    expect(notes).toEqual([
      expect.stringMatching(
        /took over .*ensure\.lock from process 1 on host fast-clock-host, its lock file 66\d s old \(another host/,
      ),
    ]);
  });

  it('a lock whose host clock runs behind (`since` 20 minutes ago), its file just written, is not taken over', async () => {
    foreignLock('slow-clock-host', Date.now() - 20 * MINUTE, 0);
    const { outcome } = await attempt();
    expect(outcome).toBeInstanceOf(ConflictError);
  });

  it('a live holder on this machine: the run says it waits, then gives up with nothing bought', async () => {
    writeFileSync(
      lockPath,
      JSON.stringify({ host: hostname(), pid: 4242, since: Date.now(), token: 'slow-run', started: 'boot:4242' }),
      { mode: 0o600 },
    );
    const { notes, outcome } = await attempt(
      fastClock({ bootId: () => 'boot', startedOf: (pid) => `boot:${pid}`, pidAlive: () => true }),
    );
    expect(notes).toEqual([
      expect.stringMatching(/process 4242 on host .* \(alive on this machine\): waiting up to 60 s/),
    ]);
    expect((outcome as ConflictError).message).toMatch(
      /another energy ensure on this machine \(process 4242\) has been ordering for over 60 s/,
    );
  });
});
