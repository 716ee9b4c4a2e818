/** `energy sandbox` as a user runs it: a process that serves until stopped and writes a usable profile. */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, runCli, spawnCli, type CliResult } from '../helpers/cli.js';

/**
 * A sandbox run expected to refuse: should it serve instead, it is stopped at its first line on stdout, so
 * that the test fails at once (code 0, stdout not empty) rather than at the timeout with a server left running.
 */
function refusedRun(args: string[], env: Record<string, string>): Promise<CliResult> {
  const run = spawnCli([...args, 'sandbox', '--port', '0'], { env });
  run.child.stdout.once('data', () => run.child.kill('SIGTERM'));
  return run.result;
}

const root = mkdtempSync(join(tmpdir(), 'energy-sandbox-cmd-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function startSandboxCommand(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  const stopped = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, stopped };
}

describe('energy sandbox', () => {
  it('saves its credentials in the ENERGY_PROFILE profile, prints the secret masked, and stops on SIGTERM', async () => {
    const env = { ...baseEnv(join(root, 'a')), ENERGY_PROFILE: 'mine' };
    const sandbox = startSandboxCommand([], env);
    const facts = await sandbox.ready;
    expect(facts.profile).toBe('mine');
    expect(facts.api_secret).toMatch(/^\*\*\*\*..$/);
    const balance = await runCli(['balance', '--json'], { env });
    expect(balance.code, balance.stderr).toBe(0);
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.stopped).toBe(0);
  });

  it("seeds TRON accounts with --seed-address and saves itself as the profile's tron-node", async () => {
    const env = { ...baseEnv(join(root, 'd')), ENERGY_PROFILE: 'chain' };
    const address = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
    const sandbox = startSandboxCommand(['--seed-address', `${address}:energy=65000,used=20000`], env);
    const facts = await sandbox.ready;
    expect(facts.tron_node).toBe(facts.base_url);
    const result = await runCli(['address', address, '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      activated: true,
      energy_available: 45_000,
      energy_limit: 65_000,
    });
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.stopped).toBe(0);
  });

  it('refuses a malformed --seed-address before starting (exit 2)', async () => {
    const result = await runCli(
      ['sandbox', '--port', '0', '--seed-address', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7:energy=lots'],
      { env: baseEnv(join(root, 'e')) },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read "energy=lots"/);
  });

  it('refuses an invalid --profile before starting', async () => {
    const result = await runCli(['--profile', 'bad name!', 'sandbox', '--port', '0'], {
      env: baseEnv(join(root, 'b')),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/invalid profile name/);
  });
});

describe('config set and unset with --json', () => {
  it('print one JSON document each', async () => {
    const env = baseEnv(join(root, 'c'));
    const set = await runCli(['config', 'set', 'api-key', 'key_12345678', '--json'], { env });
    expect(JSON.parse(set.stdout)).toEqual({ profile: 'default', name: 'api-key', value: 'key_12345678' });
    const secret = await runCli(['config', 'set', 'api-secret', '--json'], { env, input: 'secret-value-0123456789\n' });
    expect(JSON.parse(secret.stdout)).toEqual({ profile: 'default', name: 'api-secret', value: '****89' });
    const unset = await runCli(['config', 'unset', 'api-key', '--json'], { env });
    expect(JSON.parse(unset.stdout)).toEqual({ profile: 'default', name: 'api-key', removed: true });
  });
});

describe('energy sandbox and the profile it writes', () => {
  const configFile = (dir: string) => join(dir, 'config.json');
  const realProfile = {
    'base-url': 'https://api.energy.test',
    'api-key': 'key_real_0123456789',
    'api-secret': 'real-secret-0123456789abcdef',
  };

  function configWith(name: string, profiles: Record<string, Record<string, string>>): string {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(configFile(dir), JSON.stringify({ profiles }), { mode: 0o600 });
    return dir;
  }

  it('refuses to overwrite a profile that points at a real server (exit 2), leaving it byte for byte', async () => {
    const dir = configWith('real', { prod: realProfile });
    const before = readFileSync(configFile(dir));
    const result = await refusedRun([], { ...baseEnv(dir), ENERGY_PROFILE: 'prod' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('profile "prod" holds the settings of https://api.energy.test');
    expect(result.stderr).toContain('--profile sandbox');
    expect(result.stdout).toBe('');
    expect(readFileSync(configFile(dir))).toEqual(before);
  });

  it('refuses a profile holding only some of its settings, e.g. a TRON node', async () => {
    const dir = configWith('partial', { prod: { 'tron-node': 'https://api.trongrid.io' } });
    const result = await refusedRun(['--profile', 'prod'], baseEnv(dir));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('profile "prod" holds tron-node');
  });

  const savedProfiles = (dir: string) =>
    (JSON.parse(readFileSync(configFile(dir), 'utf8')) as { profiles: Record<string, Record<string, string>> })
      .profiles;

  async function runSandboxOnce(dir: string): Promise<Record<string, unknown>> {
    const sandbox = startSandboxCommand([], baseEnv(dir));
    const facts = await sandbox.ready;
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.stopped).toBe(0);
    return facts;
  }

  it.each([
    ['a local staging server', 'http://127.0.0.1:8443'],
    ['an SSH tunnel to the real API', 'http://localhost:9000'],
  ])('refuses a loopback profile it did not make (%s), leaving it byte for byte', async (_label, url) => {
    const dir = configWith(`loopback-${url.length}`, {
      sandbox: { 'base-url': url, 'api-key': 'key_staging_01', 'api-secret': 'staging-secret-0123456789' },
    });
    const before = readFileSync(configFile(dir));
    const result = await refusedRun([], baseEnv(dir));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`profile "sandbox" holds the settings of ${url}`);
    expect(result.stderr).toContain('--profile sandbox-2');
    expect(result.stderr).toContain('energy config delete-profile sandbox');
    expect(readFileSync(configFile(dir))).toEqual(before);
  });

  it('marks the profile it writes, and writes into it again on the next start', async () => {
    const dir = configWith('again', {});
    const first = await runSandboxOnce(dir);
    expect(savedProfiles(dir).sandbox).toEqual({
      'base-url': first.base_url,
      'api-key': first.api_key,
      'api-secret': expect.any(String) as string,
      'tron-node': first.base_url,
      'made-by': 'energy sandbox',
    });
    const second = await runSandboxOnce(dir);
    expect(second.profile).toBe('sandbox');
    expect(savedProfiles(dir).sandbox?.['api-key']).toBe(second.api_key);
    expect(second.api_key).not.toBe(first.api_key);
  });

  it("refuses its own profile once a setting in it was changed by hand (the profile is the user's now)", async () => {
    const dir = configWith('taken-over', {});
    await runSandboxOnce(dir);
    const set = await runCli(['--profile', 'sandbox', 'config', 'set', 'api-key', 'key_staging_02'], {
      env: baseEnv(dir),
    });
    expect(set.code, set.stderr).toBe(0);
    expect(savedProfiles(dir).sandbox?.['made-by']).toBeUndefined();
    const before = readFileSync(configFile(dir));
    const result = await refusedRun([], baseEnv(dir));
    expect(result.code).toBe(2);
    expect(readFileSync(configFile(dir))).toEqual(before);
  });

  it('writes into a profile an earlier, unmarked sandbox wrote (its own sbx_ key and TRON node)', async () => {
    const url = 'http://127.0.0.1:1234';
    const dir = configWith('earlier', {
      sandbox: { 'base-url': url, 'api-key': 'sbx_0123456789abcdef', 'api-secret': 'x'.repeat(43), 'tron-node': url },
    });
    const facts = await runSandboxOnce(dir);
    expect(savedProfiles(dir).sandbox?.['base-url']).toBe(facts.base_url);
  });

  it('writes into a profile after `config delete-profile` removed it', async () => {
    const dir = configWith('deleted', {
      sandbox: { 'base-url': 'http://127.0.0.1:8443', 'api-key': 'key_staging_01', 'api-secret': 'staging-secret-01' },
      prod: realProfile,
    });
    const removed = await runCli(['config', 'delete-profile', 'sandbox', '--json'], { env: baseEnv(dir) });
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ profile: 'sandbox', removed: true });
    expect(Object.keys(savedProfiles(dir))).toEqual(['prod']);
    const facts = await runSandboxOnce(dir);
    expect(savedProfiles(dir).sandbox?.['base-url']).toBe(facts.base_url);
    expect(savedProfiles(dir).prod).toEqual(realProfile);
  });

  it.each([
    ['a corrupt config file', (dir: string) => writeFileSync(configFile(dir), '{"profiles":', { mode: 0o600 })],
    ['a group-readable config folder', (dir: string) => chmodSync(dir, 0o755)],
  ])('with %s, exits with the error instead of serving on', async (_label, spoil) => {
    const dir = configWith(`spoilt-${_label.length}`, {});
    spoil(dir);
    const sandbox = startSandboxCommand([], baseEnv(dir));
    await expect(sandbox.ready).rejects.toThrow(/sandbox exited [1-9]/);
    expect(await sandbox.stopped).not.toBe(0);
  });

  it('prints a generated secret whole with --no-save, and that sandbox can be used with it', async () => {
    const sandbox = startSandboxCommand(['--no-save'], baseEnv(join(root, 'nosave')));
    const facts = await sandbox.ready;
    expect(facts.profile).toBeNull();
    expect(facts.api_secret).not.toMatch(/\*/);
    const env = {
      ...baseEnv(join(root, 'nosave-user')),
      ENERGY_BASE_URL: String(facts.base_url),
      ENERGY_API_KEY: String(facts.api_key),
      ENERGY_API_SECRET: String(facts.api_secret),
    };
    const balance = await runCli(['balance', '--json'], { env });
    expect(balance.code, balance.stderr).toBe(0);
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.stopped).toBe(0);
  });

  it("keeps a secret from ENERGY_API_SECRET masked with --no-save (it is the user's own)", async () => {
    const env = {
      ...baseEnv(join(root, 'own')),
      ENERGY_API_KEY: 'key_own_012345',
      ENERGY_API_SECRET: 'own-secret-0123456789ab',
    };
    const sandbox = startSandboxCommand(['--no-save'], env);
    const facts = await sandbox.ready;
    expect(facts.api_secret).toBe('****ab');
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.stopped).toBe(0);
  });
});
