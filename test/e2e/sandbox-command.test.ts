/** `energy sandbox` as a user runs it: a process that serves until stopped and writes a usable profile. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, runCli } from '../helpers/cli.js';

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
