/** Choosing a profile: an empty or unknown name is an error that says so, and `config profiles` lists them. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { createWorld, type World } from '../helpers/world.js';

let world: World;
let home: string;
let env: Record<string, string>;
beforeAll(async () => {
  world = await createWorld();
  home = mkdtempSync(join(tmpdir(), 'energy-profiles-'));
  env = baseEnv(join(home, 'config'));
  for (const [profile, name, value] of [
    ['default', 'base-url', world.sandbox.url],
    ['sandbox', 'base-url', world.sandbox.url],
    ['stage', 'api-key', 'stage-key'],
  ] as const) {
    const result = await runInProcess(['--profile', profile, 'config', 'set', name, value], env);
    if (result.code !== 0) throw new Error(result.stderr);
  }
});
afterAll(async () => {
  await world.close();
  rmSync(home, { recursive: true, force: true });
});

describe('profile selection', () => {
  it('refuses an empty --profile (a script\'s unset variable) instead of using "default", and sends nothing', async () => {
    const before = world.sandbox.requestCount();
    const result = await runInProcess(['--profile', '', 'time'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'energy: error: --profile is empty: give a profile name, or leave the option out for "default"\n',
    );
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('names an unknown profile and lists the known ones, rather than "no API base URL"', async () => {
    const result = await runInProcess(['--profile', 'prod', 'time'], env);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      'energy: error: unknown profile "prod" (from --profile): known profiles: default, sandbox, stage',
    );
    const fromEnv = await runInProcess(['time'], { ...env, ENERGY_PROFILE: 'prod' });
    expect(fromEnv.stderr.split('\n')[0]).toContain('unknown profile "prod" (from ENERGY_PROFILE)');
  });

  it('needs no profile in the file when options and environment give every value (containers)', async () => {
    const before = world.sandbox.requestCount();
    const result = await runInProcess(['--profile', 'prod', 'balance', '--json'], {
      ...world.env,
      ENERGY_CONFIG_DIR: join(home, 'none'),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(world.sandbox.requestCount()).toBe(before + 1);
  });

  it('gives a readable hint, with the profile and the sandbox, when the base URL is missing', async () => {
    const result = await runInProcess(['--profile', 'stage', 'time'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'energy: error: no API base URL in profile stage\n' +
        'hint: run `energy --profile stage config set base-url https://...`, or give --base-url or ENERGY_BASE_URL; ' +
        'to try the tool locally, run `energy sandbox` in a second terminal and use `energy --profile sandbox ...`\n',
    );
  });

  it('lists the profile names with `config profiles`', async () => {
    const text = await runInProcess(['config', 'profiles'], env);
    expect(text.stdout).toBe('default\nsandbox\nstage\n');
    const json = await runInProcess(['--json', 'config', 'profiles'], env);
    expect(JSON.parse(json.stdout)).toEqual({ profiles: ['default', 'sandbox', 'stage'] });
  });
});

describe('config list and delete-profile name the profile in their hints', () => {
  it('says how to set a missing value in the listed profile, --profile included', async () => {
    const listed = await runInProcess(['--profile', 'stage', 'config', 'list'], env);
    expect(listed.stdout).toContain('(not set: energy --profile stage config set base-url, or ENERGY_BASE_URL)');
    const fromEnv = await runInProcess(['config', 'list'], { ...env, ENERGY_PROFILE: 'stage' });
    expect(fromEnv.stdout).toContain('(not set: energy --profile stage config set api-secret, or ENERGY_API_SECRET)');
    const byDefault = await runInProcess(['config', 'list'], env);
    expect(byDefault.stdout).toContain('(not set: energy config set api-key, or ENERGY_API_KEY)');
  });

  it('removes a profile whole with `config delete-profile`, and says which ones exist when it is not there', async () => {
    const made = await runInProcess(['--profile', 'scratch', 'config', 'set', 'api-key', 'scratch-key'], env);
    expect(made.code, made.stderr).toBe(0);
    const removed = await runInProcess(['config', 'delete-profile', 'scratch'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toMatch(/^energy: profile scratch removed from .*config\.json\n$/);
    expect((await runInProcess(['config', 'profiles'], env)).stdout).toBe('default\nsandbox\nstage\n');
    const again = await runInProcess(['config', 'delete-profile', 'scratch'], env);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('energy: there is no profile scratch (known profiles: default, sandbox, stage)\n');
    const bad = await runInProcess(['config', 'delete-profile', 'no good'], env);
    expect(bad.code).toBe(2);
  });
});
