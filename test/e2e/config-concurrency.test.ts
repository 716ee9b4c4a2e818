/** The config store under parallel writers and after a crash: the lock keeps every value, a dead lock never blocks. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { baseEnv, runCli, spawnCli } from '../helpers/cli.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function freshConfig(): { dir: string; env: Record<string, string> } {
  root = mkdtempSync(join(tmpdir(), 'energy-config-lock-'));
  const dir = join(root, 'config');
  return { dir, env: baseEnv(dir) };
}

const profilesIn = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, string>> })
    .profiles;

describe('parallel config set', () => {
  it('keeps all 20 values written at once to 20 profiles', async () => {
    const { dir, env } = freshConfig();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        runCli(['--profile', `p${i}`, 'config', 'set', 'api-key', `k${i}`], { env }),
      ),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const profiles = profilesIn(dir);
    expect(Object.keys(profiles).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`).sort());
    for (let i = 0; i < 20; i += 1) expect(profiles[`p${i}`]).toEqual({ 'api-key': `k${i}` });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('keeps a key and a secret set at the same moment in one profile', async () => {
    const { dir, env } = freshConfig();
    for (let round = 0; round < 5; round += 1) {
      const [key, secret] = await Promise.all([
        runCli(['config', 'set', 'api-key', `key-${round}`], { env }),
        runCli(['config', 'set', 'api-secret'], { env, input: `secret-${round}\n` }),
      ]);
      expect(key.code, key.stderr).toBe(0);
      expect(secret.code, secret.stderr).toBe(0);
      expect(profilesIn(dir).default).toEqual({ 'api-key': `key-${round}`, 'api-secret': `secret-${round}` });
    }
  });

  it('waits for a live holder of the lock, then builds on what the holder wrote', async () => {
    const { dir, env } = freshConfig();
    expect((await runCli(['--profile', 'other', 'config', 'set', 'api-key', 'first'], { env })).code).toBe(0);
    const lockPath = join(dir, 'config.json.lock');
    // This test process holds the lock, as another `energy config set` in the middle of its write would.
    const lock = {
      host: (await import('node:os')).hostname(),
      pid: process.pid,
      since: Date.now(),
      token: 'test-holder',
    };
    writeFileSync(lockPath, JSON.stringify(lock), { mode: 0o600 });
    const running = spawnCli(['config', 'set', 'api-key', 'mine'], { env });
    let exited = false;
    void running.result.then(() => (exited = true));
    // It has met the lock and says it waits (and has written nothing meanwhile).
    const deadline = Date.now() + 20_000;
    const waiting = new RegExp(`the config file is being changed by process ${process.pid} on host .*: waiting`);
    while (!waiting.test(running.output().stderr)) {
      if (exited || Date.now() > deadline) throw new Error(`never said it waits: ${running.output().stderr}`);
      await sleep(20);
    }
    expect(profilesIn(dir)).toEqual({ other: { 'api-key': 'first' } });
    // The holder's write lands, then it lets go.
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { other: { 'api-key': 'second' } } }), {
      mode: 0o600,
    });
    rmSync(lockPath);
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(profilesIn(dir)).toEqual({ other: { 'api-key': 'second' }, default: { 'api-key': 'mine' } });
  });

  it('takes over a lock left by a killed process at once', async () => {
    const { dir, env } = freshConfig();
    expect((await runCli(['config', 'set', 'api-key', 'before'], { env })).code).toBe(0);
    // A holder that no longer exists on this host: pid 2^22 + 1 is above Linux's pid_max.
    const lock = { host: (await import('node:os')).hostname(), pid: 4_194_305, since: Date.now(), token: 'dead' };
    writeFileSync(join(dir, 'config.json.lock'), JSON.stringify(lock), { mode: 0o600 });
    const result = await runCli(['config', 'set', 'api-key', 'after'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(profilesIn(dir).default).toEqual({ 'api-key': 'after' });
  });
});
