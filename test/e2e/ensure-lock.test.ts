/**
 * `ensure`'s lock in the state folder, spawned for real: a run on this machine that holds it is never
 * overtaken, however long it has held it (the next run waits); a lock from another host name is taken
 * over only when its file is old on this machine's clock, whatever that host's clock said, and the message
 * says so. Counted at the server: orders.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { liveProcess, startedOf } from '../helpers/live-process.js';
import { createWorld, type World } from '../helpers/world.js';

let world: World;
let lockPath: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  world = await createWorld();
  mkdirSync(join(world.stateDir, 'journal'), { recursive: true, mode: 0o700 });
  lockPath = join(world.stateDir, 'journal', 'ensure.lock');
});
afterAll(async () => {
  for (const child of children) child.kill();
  await world.close();
});

const ensureArgs = (address: string) => ['ensure', address, '--energy', '65000', '--hours', '1', '--yes', '--json'];
const env = () => ({ ENERGY_TRON_NODE: world.sandbox.url });
const ensure = (address: string) => world.run(ensureArgs(address), { env: env() });
const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

describe('the ensure lock', () => {
  it('a run on this machine holding the lock for 20 minutes is not overtaken: the next run waits for it', async () => {
    const address = freshAddress(15_001);
    // Another (slow) ensure on this machine: alive, and its lock is 20 minutes old.
    const holder = await liveProcess(children);
    writeFileSync(
      lockPath,
      JSON.stringify({
        host: hostname(),
        pid: holder.pid,
        since: Date.now() - 20 * 60_000,
        token: 'slow-run',
        started: startedOf(holder.pid!),
      }),
      { mode: 0o600 },
    );
    const run = world.spawn(ensureArgs(address), { env: env() });
    // It has read the chain, found the address short, and met the lock: it says it waits.
    const deadline = Date.now() + 20_000;
    while (!/ensure\.lock is held by process \d+ .*\(alive on this machine\): waiting/.test(run.output().stderr)) {
      if (Date.now() > deadline || run.child.exitCode !== null) throw new Error(`never waited: ${run.output().stderr}`);
      await sleep(20);
    }
    expect(ordersTo(address)).toHaveLength(0);
    holder.kill();
    const result = await run.result;
    expect(result.code, result.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
  }, 30_000);

  it('a lock from a host whose clock runs a day ahead (`since` in the future), its file 11 minutes old, is taken over', async () => {
    const address = freshAddress(15_002);
    writeFileSync(
      lockPath,
      JSON.stringify({ host: 'old-container-7f3a', pid: 1, since: Date.now() + 86_400_000, token: 'elsewhere' }),
      { mode: 0o600 },
    );
    const eleven = (Date.now() - 11 * 60_000) / 1000;
    utimesSync(lockPath, eleven, eleven);
    const result = await ensure(address);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /took over .*ensure\.lock from process 1 on host old-container-7f3a, its lock file 66\d s old/,
    );
    expect(result.stderr).not.toMatch(/on this machine/);
    expect(ordersTo(address)).toHaveLength(1);
  });
});
