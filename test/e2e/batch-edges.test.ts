/**
 * `order batch`, `order pending` and `order recover` at their edges (issue 17): endless standard input,
 * readable results as lines finish, re-runs that skip everything, damaged journal records, a journal that
 * cannot be written, and records of another API.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { expectNoStackTrace, freshAddress } from '../helpers/e2e.js';
import { tempDirForSuite, worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ startingBalance: '100000.000000', deliverAfterMs: 60_000 });
const dir = tempDirForSuite('energy-batch-edges-');
afterEach(() => world.sandbox.clearFaults());

let next = 70_000;
function csv(name: string, count: number): { path: string; addresses: string[] } {
  const addresses = Array.from({ length: count }, () => freshAddress((next += 1)));
  const path = join(dir.path, name);
  writeFileSync(path, `address,energy,hours\n${addresses.map((a) => `${a},65000,1`).join('\n')}\n`);
  return { path, addresses };
}
const ordersTo = (addresses: string[]) => world.sandbox.orders().filter((o) => addresses.includes(o.address));
const orderPosts = () => world.sandbox.requestCount('/v1/energy/orders');

/** Spawns the CLI with stdin from `/dev/zero` (or an open pipe) and its own TMPDIR, to see what it leaves there. */
function spawnWithStdin(args: string[], stdin: number | 'pipe', tmp: string, env: Record<string, string> = world.env) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...env, TMPDIR: tmp },
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const result = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? (signal === 'SIGTERM' ? 143 : -1), stdout, stderr })),
  );
  return { child, result, output: () => stdout };
}

/** What energy left in its temporary folder: Node 22+'s compile cache (bin/energy.js enables it) is Node's own. */
const spoolFiles = (tmp: string) => readdirSync(tmp).filter((name) => name !== 'node-compile-cache');

describe('standard input without end (item 20)', () => {
  it('order batch - < /dev/zero stops at the line cap (exit 2) and leaves no spool file', async () => {
    const tmp = mkdtempSync(join(dir.path, 'tmp-'));
    const zero = openSync('/dev/zero', 'r');
    const { result } = spawnWithStdin(['order', 'batch', '-', '--yes'], zero, tmp);
    closeSync(zero);
    const done = await result;
    expect(done.code, done.stderr).toBe(2);
    expect(done.stderr).toMatch(/stdin, line 1: longer than 4096 characters/);
    expectNoStackTrace(done);
    expect(spoolFiles(tmp)).toEqual([]);
  });

  it('SIGTERM while a batch reads an endless pipe exits 143 at once and removes the spool file', async () => {
    const tmp = mkdtempSync(join(dir.path, 'tmp-'));
    const running = spawnWithStdin(['order', 'batch', '-', '--yes'], 'pipe', tmp);
    running.child.stdin!.write(`address,energy,hours\n${freshAddress((next += 1))},65000,1\n`);
    while (spoolFiles(tmp).length === 0) await sleep(20);
    running.child.kill('SIGTERM');
    const done = await running.result;
    expect(done.code, done.stderr).toBe(143);
    expect(done.stderr).toMatch(/interrupted by SIGTERM/);
    expect(spoolFiles(tmp)).toEqual([]);
  });

  it('config set api-secret < /dev/zero stops at the cap (exit 2), nothing written', async () => {
    const tmp = mkdtempSync(join(dir.path, 'tmp-'));
    const configDir = join(tmp, 'config');
    const zero = openSync('/dev/zero', 'r');
    const { PATH = '' } = process.env;
    const { result } = spawnWithStdin(['config', 'set', 'api-secret'], zero, tmp, {
      PATH,
      HOME: tmp,
      ENERGY_CONFIG_DIR: configDir,
      NO_COLOR: '1',
    });
    closeSync(zero);
    const done = await result;
    expect(done.code, done.stderr).toBe(2);
    expect(done.stderr).toMatch(/standard input is over 64 KiB/);
    expect(() => readdirSync(configDir)).toThrow();
  });
});

describe('readable results (item 15) and skipped lines (item 9)', () => {
  it('prints each line as it finishes, before the batch ends', async () => {
    const { path, addresses } = csv('stream.csv', 2);
    // The first order answers at once, the second not for a minute: line 2's row must already be out.
    world.sandbox.inject({ kind: 'delay', ms: 0, times: 1, match: { method: 'POST', path: '/v1/energy/orders' } });
    world.sandbox.inject({ kind: 'delay', ms: 60_000, times: 1, match: { method: 'POST', path: '/v1/energy/orders' } });
    const running = world.spawn(['order', 'batch', path, '--yes', '--concurrency', '1']);
    while (!/created/.test(running.output().stdout)) await sleep(20);
    const { stdout } = running.output();
    expect(stdout).toMatch(/^LINE\s+CLIENT_REQUEST_ID\s+STATUS/);
    expect(stdout).toMatch(/\n2\s+batch-[0-9a-f]{32}\s+created/);
    // Still running: line 3's order has not been answered.
    expect(running.child.exitCode).toBe(null);
    expect(stdout).not.toMatch(/\n3\s/);
    expect(ordersTo(addresses).length).toBeGreaterThanOrEqual(1);
    running.child.kill('SIGKILL');
    await running.result;
    // Line 3's record stays pending after the kill: out of the way of the tests below.
    for (const name of readdirSync(join(world.stateDir, 'journal', 'pending')))
      rmSync(join(world.stateDir, 'journal', 'pending', name));
  });

  it('a re-run of a file fully ordered says why every line was skipped, and how to buy again', async () => {
    const { path, addresses } = csv('again.csv', 2);
    const first = await world.run(['order', 'batch', path, '--yes']);
    expect(first.code, first.stderr).toBe(0);
    const again = await world.run(['order', 'batch', path, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/every line of .*again\.csv was ordered by an earlier run of this batch/);
    expect(again.stderr).toMatch(/new id in a client_request_id column, or use a file of another name/);
    expect(ordersTo(addresses)).toHaveLength(2);
  });
});

describe('journal records (items 7, 18, 19)', () => {
  const pendingDir = () => join(world.stateDir, 'journal', 'pending');

  it('a damaged pending record: listed by order pending, reported by recover (exit 5), its batch line failed, the others placed', async () => {
    const { path, addresses } = csv('damaged.csv', 3);
    // Leave line 3 pending (its answer never comes back), then damage its record.
    world.sandbox.inject({
      kind: 'drop-after-commit',
      times: 10,
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const only = join(dir.path, 'one.csv');
    writeFileSync(only, `address,energy,hours,client_request_id\n${addresses[2]},65000,1,damaged-1\n`);
    const lost = await world.run(['order', 'batch', only, '--yes']);
    expect(lost.code).not.toBe(0);
    world.sandbox.clearFaults();
    const [file] = readdirSync(pendingDir());
    writeFileSync(join(pendingDir(), file!), '{"version": 1, "origin": "htt');

    const pending = await world.run(['order', 'pending', '--json']);
    expect(pending.code, pending.stderr).toBe(0);
    expect(JSON.parse(pending.stdout).unreadable).toEqual([
      { path: join(pendingDir(), file!), reason: 'not valid JSON (truncated or garbled)' },
    ]);
    const readable = await world.run(['order', 'pending']);
    expect(readable.stderr).toContain(`unreadable journal record ${join(pendingDir(), file!)}`);

    const recover = await world.run(['order', 'recover', '--yes']);
    expect(recover.code, recover.stderr).toBe(5);
    expect(recover.stderr).toContain(`cannot recover ${join(pendingDir(), file!)}`);
    const one = await world.run(['order', 'recover', 'damaged-1', '--yes']);
    expect(one.code, one.stderr).toBe(5);
    expect(one.stderr).toMatch(/client_request_id damaged-1 is unreadable/);

    writeFileSync(
      path,
      `address,energy,hours,client_request_id\n${addresses[0]},65000,1,damaged-a\n${addresses[1]},65000,1,damaged-b\n${addresses[2]},65000,1,damaged-1\n`,
    );
    const posts = orderPosts();
    const batch = await world.run(['order', 'batch', path, '--yes', '--json']);
    expect(batch.code, batch.stderr).toBe(9);
    expectNoStackTrace(batch);
    const lines = batch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.line, l.status, l.error?.exit_code ?? null]).sort()).toEqual([
      [2, 'created', null],
      [3, 'created', null],
      [4, 'failed', 5],
    ]);
    expect(orderPosts() - posts).toBe(2);
    rmSync(join(pendingDir(), file!));
  });

  it('order pending marks the rows this profile can settle, and hints recover only for those', async () => {
    const { addresses } = csv('scopes.csv', 2);
    world.sandbox.inject({
      kind: 'drop-after-commit',
      times: 10,
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const here = await world.run(['order', 'create', addresses[0]!, '--energy', '65000', '--hours', '1', '--yes']);
    expect(here.code).not.toBe(0);
    world.sandbox.clearFaults();
    // A record of another API and key: the same file moved to another account by hand-editing its origin and
    // key id (the account is the key: another URL alone would be this one).
    const [mine] = readdirSync(pendingDir());
    const text = (await import('node:fs')).readFileSync(join(pendingDir(), mine!), 'utf8');
    writeFileSync(
      join(pendingDir(), `0000000000000000-${mine!.split('-')[1]}`),
      text
        .replace(world.sandbox.url, 'https://other.example.com')
        .replace(/"key_id": "[^"]+"/, '"key_id": "sha256:00000000000000ff"')
        .replace(/"client_request_id": "[^"]+"/, '"client_request_id": "elsewhere-1"'),
      { mode: 0o600 },
    );

    const listed = await world.run(['order', 'pending']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/\bHERE\b/);
    expect(listed.stdout).toMatch(/elsewhere-1 .*\bno\b/);
    expect(listed.stderr).toMatch(/settle the 1 marked HERE yes with: energy order recover/);
    expect(listed.stderr).toMatch(/1 of them \(HERE no\) went to another API or key/);

    rmSync(join(pendingDir(), mine!));
    const others = await world.run(['order', 'pending']);
    expect(others.stderr).not.toMatch(/order recover/);
    expect(others.stderr).toMatch(/all of them \(HERE no\) went to another API or key/);
    // A stored profile with that API is named, as the command that settles it; one with another API is not.
    for (const [profile, url] of [
      ['elsewhere', 'https://other.example.com'],
      ['unrelated', 'https://third.example.com'],
    ]) {
      const set = await world.run(['--profile', profile!, 'config', 'set', 'base-url', url!]);
      expect(set.code, set.stderr).toBe(0);
    }
    const named = await world.run(['order', 'pending']);
    expect(named.stderr).toContain(
      'all of them (HERE no) went to another API or key: recover them with `energy --profile elsewhere order recover`\n',
    );
    for (const name of readdirSync(pendingDir())) rmSync(join(pendingDir(), name));
  });

  it('a batch whose journal cannot record outcomes prints every result, names the order ids and recover (exit 9, not 1)', async () => {
    const { path, addresses } = csv('unrecorded.csv', 2);
    const settled = join(world.stateDir, 'journal', 'settled');
    const moved = `${settled}.moved`;
    mkdirSync(settled, { recursive: true });
    (await import('node:fs')).renameSync(settled, moved);
    writeFileSync(settled, '', { mode: 0o600 });
    try {
      const batch = await world.run(['order', 'batch', path, '--yes', '--json']);
      expectNoStackTrace(batch);
      expect(batch.code, batch.stderr).toBe(9);
      const lines = batch.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line.error.exit_code).toBe(7);
        expect(line.error.message).toMatch(/order \S+ was placed \(client_request_id batch-/);
      }
      expect(ordersTo(addresses)).toHaveLength(2);
    } finally {
      rmSync(settled);
      (await import('node:fs')).renameSync(moved, settled);
    }
    // Once the journal works, recover settles both without a second order.
    const posts = ordersTo(addresses).length;
    const recover = await world.run(['order', 'recover', '--yes']);
    expect(recover.code, recover.stderr).toBe(0);
    expect(ordersTo(addresses)).toHaveLength(posts);
  });

  it('/proc/self/mem as a batch file is a clear error, not exit 1', async () => {
    const result = await world.run(['order', 'batch', '/proc/self/mem', '--yes']);
    expect(result.code, result.stderr).toBe(2);
    expectNoStackTrace(result);
    expect(result.stderr).toMatch(/cannot read \/proc\/self\/mem/);
  });
});
