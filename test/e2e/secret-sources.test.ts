/**
 * The API secret from a helper command (`api-secret-command`) or a file (ENERGY_API_SECRET_FILE): signed
 * requests work, a failing helper is exit 3 naming it without its output, and the secret never shows.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { createWorld, json, type World } from '../helpers/world.js';

let world: World;
let dir: string;
/** The environment without ENERGY_API_SECRET: the secret must come from the helper or the file. */
let env: Record<string, string | undefined>;

function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

async function setCommand(command: string): Promise<void> {
  const result = await world.run(['config', 'set', 'api-secret-command', command], { env });
  if (result.code !== 0) throw new Error(result.stderr);
}

function expectNoSecret(result: CliResult): void {
  expect(result.stdout).not.toContain(world.sandbox.apiSecret);
  expect(result.stderr).not.toContain(world.sandbox.apiSecret);
}

beforeAll(async () => {
  world = await createWorld();
  dir = mkdtempSync(join(tmpdir(), 'energy-secret-'));
  env = { ...world.env, ENERGY_API_SECRET: undefined };
  const key = await world.run(['config', 'set', 'api-key', world.sandbox.apiKey], { env });
  if (key.code !== 0) throw new Error(key.stderr);
});
afterAll(async () => {
  await world.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('api-secret-command', () => {
  it('signs with what a helper script prints (one trailing newline removed), its stderr passed through', async () => {
    await setCommand(script('ok.sh', `echo "helper speaking" >&2\necho '${world.sandbox.apiSecret}'`));
    const before = world.sandbox.requestCount('/v1/balance');
    const result = await world.run(['--verbose', 'balance'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('helper speaking');
    expect(world.sandbox.requestCount('/v1/balance')).toBe(before + 1);
    expectNoSecret(result);
  });

  it('runs a value with shell syntax under the shell', async () => {
    const path = script('plain.sh', `echo '${world.sandbox.apiSecret}'`);
    await setCommand(`cat ${path} | sh`);
    const result = await world.run(['balance', '--json'], { env });
    expect(result.code).toBe(0);
    expectNoSecret(result);
  });

  it('a failing helper is exit 3 naming the command, never printing its output, and nothing is sent', async () => {
    const path = script('fail.sh', `echo '${world.sandbox.apiSecret}-partial'\nexit 4`);
    await setCommand(path);
    const before = world.sandbox.requestCount();
    for (const args of [['balance'], ['--json', 'balance']]) {
      const result = await world.run(args, { env });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`api-secret-command \`${path}\` failed with exit status 4`);
      expectNoSecret(result);
    }
    const missing = join(dir, 'no-such-helper');
    await setCommand(missing);
    const result = await world.run(['balance'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('was not found');
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('config list says where the secret comes from without running the helper', async () => {
    const marker = join(dir, 'ran');
    await setCommand(script('marks.sh', `touch '${marker}'\necho '${world.sandbox.apiSecret}'`));
    const result = await world.run(['config', 'list', '--json'], { env });
    expect(result.code).toBe(0);
    const secret = json<{ settings: { name: string; from?: string; source: string }[] }>(result).settings.find(
      (row) => row.name === 'api-secret',
    );
    expect(secret).toMatchObject({ from: 'command', source: 'profile', value: null });
    const text = await world.run(['config', 'list'], { env });
    expect(text.stdout).toMatch(/api-secret\s+\(read from the command `.*marks\.sh`\)/);
    expect(() => rmSync(marker)).toThrow();
    expectNoSecret(text);
  });
});

describe('ENERGY_API_SECRET_FILE', () => {
  it.each([
    ['with a trailing newline', '\n'],
    ['without one', ''],
  ])('signs with the file %s, over the profile helper, and never shows it', async (_name, ending) => {
    await setCommand(join(dir, 'no-such-helper'));
    const file = join(dir, `secret${ending.length}`);
    writeFileSync(file, `${world.sandbox.apiSecret}${ending}`);
    const before = world.sandbox.requestCount('/v1/balance');
    const fileEnv = { ...env, ENERGY_API_SECRET_FILE: file };
    const result = await world.run(['--verbose', 'balance'], { env: fileEnv });
    expect(result.code).toBe(0);
    expect(world.sandbox.requestCount('/v1/balance')).toBe(before + 1);
    expectNoSecret(result);
    const list = await world.run(['config', 'list', '--json'], { env: fileEnv });
    expect(
      json<{ settings: { name: string }[] }>(list).settings.find((row) => row.name === 'api-secret'),
    ).toMatchObject({ from: 'file', file, source: 'environment' });
  });

  it('signs with a file written with a CRLF line end (Windows editors): the CR goes with the line break', async () => {
    const file = join(dir, 'secret-crlf');
    writeFileSync(file, `${world.sandbox.apiSecret}\r\n`);
    const before = world.sandbox.requestCount('/v1/balance');
    const result = await world.run(['balance', '--json'], { env: { ...env, ENERGY_API_SECRET_FILE: file } });
    expect(result.code, result.stderr).toBe(0);
    expect(world.sandbox.requestCount('/v1/balance')).toBe(before + 1);
    expectNoSecret(result);
  });

  it('ENERGY_API_SECRET comes before the file: a file with another secret is not read', async () => {
    const file = join(dir, 'secret-stale');
    writeFileSync(file, 'a-stale-secret-from-last-year\n');
    const before = world.sandbox.requestCount('/v1/balance');
    const both = { ...env, ENERGY_API_SECRET: world.sandbox.apiSecret, ENERGY_API_SECRET_FILE: file };
    const result = await world.run(['balance', '--json'], { env: both });
    expect(result.code, result.stderr).toBe(0);
    expect(world.sandbox.requestCount('/v1/balance')).toBe(before + 1);
    const list = await world.run(['config', 'list', '--json'], { env: both });
    const secret = json<{ settings: { name: string; from?: string }[] }>(list).settings.find(
      (row) => row.name === 'api-secret',
    );
    expect(secret).toMatchObject({ source: 'environment' });
    expect(secret?.from).toBeUndefined();
  });

  it('a missing file is exit 3 naming it: "no such file"', async () => {
    const file = join(dir, 'absent');
    const result = await world.run(['balance'], { env: { ...env, ENERGY_API_SECRET_FILE: file } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${file} (ENERGY_API_SECRET_FILE): no such file`);
    expect(result.stderr).not.toContain('folder');
  });

  it('a named pipe with no writer, or a device, is refused at once (exit 3), nothing sent', async () => {
    const fifo = join(dir, 'secret.fifo');
    execFileSync('mkfifo', [fifo]);
    const before = world.sandbox.requestCount();
    for (const [file, kind] of [
      [fifo, 'a named pipe'],
      ['/dev/zero', 'a device'],
    ] as const) {
      // Before the fix this run never ended (open() on the pipe), and no signal could stop it.
      const running = world.spawn(['balance'], { env: { ...env, ENERGY_API_SECRET_FILE: file } });
      const guard = setTimeout(() => running.child.kill('SIGKILL'), 15_000);
      const result = await running.result;
      clearTimeout(guard);
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toContain(`${kind}, not a regular file`);
      expect(result.stderr).toContain('api-secret-command');
    }
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('a second line break is refused (exit 3), not sent', async () => {
    const file = join(dir, 'two-lines');
    writeFileSync(file, `${world.sandbox.apiSecret}\n\n`);
    const before = world.sandbox.requestCount();
    const result = await world.run(['balance'], { env: { ...env, ENERGY_API_SECRET_FILE: file } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('line break');
    expect(world.sandbox.requestCount()).toBe(before);
    expectNoSecret(result);
  });
});
