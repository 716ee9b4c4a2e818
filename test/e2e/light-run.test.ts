/**
 * `balance` and `time` in their plainest forms run from the light bundle without commander
 * (src/app/light-main.ts); the same command line with a trailing `--` (nothing after it: commander accepts it,
 * the light path does not) runs the whole program. Both must print the same, succeed or fail alike, and reach
 * the server alike.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deadUrl } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';

const RECORD_LOADS = fileURLToPath(new URL('../fixtures/record-loads.cjs', import.meta.url));
const world = worldForSuite();

/** Runs `args` and the same with `--` after them; returns both, and which bundle each loaded. */
async function bothWays(args: string[], env: Record<string, string> = {}) {
  const runs = [];
  for (const words of [args, [...args, '--']]) {
    const file = join(mkdtempSync(join(tmpdir(), 'energy-light-')), 'loads.txt');
    const before = world.sandbox.requestCount();
    const result = await world.run(words, {
      env: { NODE_OPTIONS: `--require ${RECORD_LOADS}`, ENERGY_TEST_LOADS_FILE: file, ...env },
    });
    const loads = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    runs.push({ ...result, requests: world.sandbox.requestCount() - before, loads });
  }
  const [light, whole] = runs;
  expect(light!.loads).toContain('light.cjs');
  expect(light!.loads).not.toContain('main.cjs');
  expect(whole!.loads).toContain('main.cjs');
  return { light: light!, whole: whole! };
}

/**
 * Stderr with what differs between two runs a moment apart made equal: durations, and the request's
 * timestamp (the two runs may sign in different seconds).
 */
function comparable(stderr: string): string {
  return stderr.replace(/\d+(\.\d+)? ms/g, 'N ms').replace(/(x-request-timestamp: )\d+/g, '$1T');
}

/** A profile `other` in the world's config folder, with the sandbox's credentials. */
function profileEnv(): Record<string, string> {
  mkdirSync(world.configDir, { recursive: true, mode: 0o700 });
  const profile = {
    'base-url': world.sandbox.url,
    'api-key': world.sandbox.apiKey,
    'api-secret': world.sandbox.apiSecret,
  };
  writeFileSync(join(world.configDir, 'config.json'), JSON.stringify({ profiles: { other: profile } }), {
    mode: 0o600,
  });
  return { ENERGY_BASE_URL: '', ENERGY_API_KEY: '', ENERGY_API_SECRET: '' };
}

describe('balance and time without commander', () => {
  it.each([[['balance', '--json']], [['balance']], [['--json', 'balance', '--verbose']]])(
    '%j prints what the whole program prints, after one request',
    async (args) => {
      const { light, whole } = await bothWays(args);
      expect(light.code).toBe(0);
      expect(whole.code).toBe(0);
      expect(light.stdout).toBe(whole.stdout);
      expect(light.stdout).toMatch(/available/i);
      expect(light.requests).toBe(1);
      expect(whole.requests).toBe(1);
      expect(comparable(light.stderr)).toBe(comparable(whole.stderr));
    },
  );

  it('time --json reads the server clock as the whole program does', async () => {
    const { light, whole } = await bothWays(['time', '--json']);
    expect(light.code).toBe(0);
    expect(Object.keys(JSON.parse(light.stdout)).sort()).toEqual(['local_unix_time', 'skew_seconds', 'unix_time']);
    expect(Object.keys(JSON.parse(whole.stdout)).sort()).toEqual(Object.keys(JSON.parse(light.stdout)).sort());
    expect(light.requests).toBe(whole.requests);
    expect(light.requests).toBeGreaterThan(0);
  });

  it('--profile picks the profile, from the light path too', async () => {
    const env = profileEnv();
    const { light, whole } = await bothWays(['--profile', 'other', 'balance', '--json'], env);
    expect(light.code, light.stderr).toBe(0);
    expect(light.stdout).toBe(whole.stdout);
    expect(light.requests).toBe(1);
  });

  it.each([
    ['a wrong secret (exit 3, the 401 said with where the credentials came from)', ['balance', '--json'], 3],
    ['a wrong secret, as text', ['balance'], 3],
  ])('%s fails as the whole program fails', async (_name, args, code) => {
    const { light, whole } = await bothWays(args, { ENERGY_API_SECRET: 'wrong-secret-0123456789' });
    expect(light.code).toBe(code);
    expect(whole.code).toBe(code);
    expect(light.stdout).toBe('');
    expect(light.stderr).toBe(whole.stderr);
    // The 401, then the clock read that tells a skewed clock from a wrong secret.
    expect(light.requests).toBe(2);
    expect(whole.requests).toBe(2);
  });

  it('an unreachable server (exit 7) fails as the whole program fails', async () => {
    const { light, whole } = await bothWays(['--base-url', await deadUrl(), 'balance', '--json']);
    expect(light.code).toBe(7);
    expect(whole.code).toBe(7);
    expect(light.stderr).toBe(whole.stderr);
    expect(JSON.parse(light.stderr).error.exit_code).toBe(7);
  });

  it('an unknown profile (exit 2) fails as the whole program fails, before any request', async () => {
    const { light, whole } = await bothWays(['--profile', 'nosuch', 'time', '--json'], profileEnv());
    expect(light.code).toBe(2);
    expect(whole.code).toBe(2);
    expect(light.stderr).toBe(whole.stderr);
    expect(light.requests).toBe(0);
  });
});
