import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult, RunOptions } from '../helpers/cli.js';
import { deadUrl, expectNoStackTrace } from '../helpers/e2e.js';
import { createWorld, json, type World } from '../helpers/world.js';

/** Most runs here see no ENERGY_* settings: everything comes from the profile store. */
const NO_SETTINGS = { ENERGY_BASE_URL: undefined, ENERGY_API_KEY: undefined, ENERGY_API_SECRET: undefined };

let world: World;
let secret: string;
let mask: string;
let configFile: string;
let setSecret: CliResult;

function bare(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return world.run(args, { ...options, env: { ...NO_SETTINGS, ...options.env } });
}

function expectSecretAbsent(result: CliResult): void {
  expect(result.stdout).not.toContain(secret);
  expect(result.stderr).not.toContain(secret);
}

beforeAll(async () => {
  world = await createWorld();
  secret = world.sandbox.apiSecret;
  mask = `****${secret.slice(-2)}`;
  configFile = join(world.configDir, 'config.json');
  for (const args of [
    ['config', 'set', 'base-url', world.sandbox.url],
    ['config', 'set', 'api-key', world.sandbox.apiKey],
  ]) {
    const result = await bare(args);
    if (result.code !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  }
  setSecret = await bare(['config', 'set', 'api-secret'], { input: `${secret}\n` });
  if (setSecret.code !== 0) throw new Error(`config set api-secret failed: ${setSecret.stderr}`);
});
afterAll(async () => world.close());

describe('energy config set', () => {
  it('reads the api-secret from stdin and never echoes it', () => {
    expectSecretAbsent(setSecret);
    expect(setSecret.stderr).toContain(mask);
    expect(readFileSync(configFile, 'utf8')).toContain(secret);
  });

  it('lets balance run from the profile alone', async () => {
    const result = await bare(['balance', '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ available_trx: '1000.000000', held_trx: '0.000000' });
  });

  it('refuses an api-secret given on the command line with exit 2 and stores nothing', async () => {
    const value = 'argv-secret-that-must-not-be-stored';
    const result = await bare(['config', 'set', 'api-secret', value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/api-secret/);
    expect(result.stdout).not.toContain(value);
    expect(result.stderr).not.toContain(value);
    const stored = readFileSync(configFile, 'utf8');
    expect(stored).not.toContain(value);
    expect(stored).toContain(secret);
    expectNoStackTrace(result);
  });

  it('accepts an https base URL for any host without connecting, and refuses http for a host that is not loopback', async () => {
    const https = await bare(['config', 'set', 'base-url', 'https://api.example.com', '--profile', 'remote']);
    expect(https.code).toBe(0);
    const http = await bare(['config', 'set', 'base-url', 'http://api.example.com', '--profile', 'remote-http']);
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('https://');
    const stored = readFileSync(configFile, 'utf8');
    expect(stored).toContain('https://api.example.com');
    expect(stored).not.toContain('http://api.example.com');
  });
});

describe('energy config get and list', () => {
  it('shows the api-secret masked as ****xy, never the secret', async () => {
    const result = await bare(['config', 'get', 'api-secret']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${mask}\n`);
    expectSecretAbsent(result);
  });

  it('lists each setting with its source (profile) and the secret masked', async () => {
    const result = await bare(['config', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^base-url\\s+${world.sandbox.url.replace(/\./g, '\\.')} \\(profile\\)$`, 'm'),
    );
    expect(result.stdout).toMatch(new RegExp(`^api-key\\s+${world.sandbox.apiKey} \\(profile\\)$`, 'm'));
    expect(result.stdout).toMatch(
      new RegExp(`^api-secret\\s+\\*{4}${secret.slice(-2).replace(/[-]/g, '\\-')} \\(profile\\)$`, 'm'),
    );
    expectSecretAbsent(result);
  });

  it('lists option, environment and profile sources as JSON with the secret masked', async () => {
    const result = await bare(['config', 'list', '--json', '--base-url', world.sandbox.url], {
      env: { ENERGY_API_KEY: 'env-key-123' },
    });
    expect(result.code).toBe(0);
    const body = json<{ profile: string; settings: { name: string; value: string | null; source: string | null }[] }>(
      result,
    );
    expect(body.profile).toBe('default');
    expect(body.settings).toEqual([
      { name: 'base-url', value: world.sandbox.url, source: 'option' },
      { name: 'api-key', value: 'env-key-123', source: 'environment' },
      { name: 'api-secret', value: mask, source: 'profile' },
      { name: 'api-secret-command', value: null, source: null },
      { name: 'tron-node', value: 'https://api.trongrid.io', source: 'default' },
      { name: 'tron-api-key', value: null, source: null },
      { name: 'tron-api-key-command', value: null, source: null },
      { name: 'state-url', value: null, source: null },
    ]);
    expectSecretAbsent(result);
  });

  it('masks a secret that comes from the environment too', async () => {
    const result = await world.run(['config', 'list', '--json']);
    expect(result.code).toBe(0);
    const body = json<{ settings: { name: string; value: string | null; source: string | null }[] }>(result);
    expect(body.settings.find((s) => s.name === 'api-secret')).toEqual({
      name: 'api-secret',
      value: mask,
      source: 'environment',
    });
    expectSecretAbsent(result);
  });
});

describe('energy config path and the store on disk', () => {
  it('prints the config file path inside ENERGY_CONFIG_DIR', async () => {
    const result = await bare(['config', 'path']);
    expect(result.code).toBe(0);
    const path = result.stdout.trim();
    expect(path.startsWith(world.configDir + sep)).toBe(true);
    expect(existsSync(path)).toBe(true);
  });

  it('keeps the config file 0600 and its folder 0700', () => {
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(statSync(world.configDir).mode & 0o777).toBe(0o700);
  });
});

describe('energy config profiles', () => {
  it('keeps --profile other separate from the default profile', async () => {
    expect((await bare(['config', 'set', 'api-key', 'other-key', '--profile', 'other'])).code).toBe(0);
    const other = await bare(['config', 'get', 'api-key'], { env: { ENERGY_PROFILE: 'other' } });
    expect(other.stdout).toBe('other-key\n');
    const fallback = await bare(['config', 'get', 'api-key']);
    expect(fallback.stdout).toBe(`${world.sandbox.apiKey}\n`);
  });

  it('removes a setting with config unset', async () => {
    expect((await bare(['config', 'set', 'api-key', 'short-lived', '--profile', 'unset-me'])).code).toBe(0);
    const unset = await bare(['config', 'unset', 'api-key', '--profile', 'unset-me']);
    expect(unset.code).toBe(0);
    const after = await bare(['config', 'get', 'api-key', '--profile', 'unset-me', '--json']);
    expect(after.code).toBe(0);
    expect(json(after)).toEqual({ profile: 'unset-me', name: 'api-key', value: null });
    expect(readFileSync(configFile, 'utf8')).not.toContain('short-lived');
  });
});

describe('precedence: option, then environment, then profile', () => {
  let DEAD_URL = '';
  beforeAll(async () => {
    DEAD_URL = await deadUrl();
    const result = await bare(['config', 'set', 'base-url', DEAD_URL, '--profile', 'dead']);
    if (result.code !== 0) throw new Error(`config set failed: ${result.stderr}`);
  });

  it('uses the profile base URL when nothing else is given (here a dead port: exit 7)', async () => {
    const result = await world.run(['balance', '--profile', 'dead', '--retries', '0'], {
      env: { ENERGY_BASE_URL: undefined },
    });
    expect(result.code).toBe(7);
  });

  it('lets ENERGY_BASE_URL beat the profile', async () => {
    const result = await world.run(['balance', '--json', '--profile', 'dead', '--retries', '0'], {
      env: { ENERGY_BASE_URL: world.sandbox.url },
    });
    expect(result.code).toBe(0);
  });

  it('lets --base-url beat ENERGY_BASE_URL and the profile', async () => {
    const result = await world.run(
      ['balance', '--json', '--profile', 'dead', '--retries', '0', '--base-url', world.sandbox.url],
      {
        env: { ENERGY_BASE_URL: DEAD_URL },
      },
    );
    expect(result.code).toBe(0);
  });

  it('lets ENERGY_API_SECRET beat the profile secret', async () => {
    const result = await bare(['balance', '--retries', '0'], {
      env: { ENERGY_API_SECRET: 'a-wrong-secret-from-the-environment' },
    });
    expect(result.code).toBe(3);
  });
});

describe('unsafe or broken config', () => {
  it('refuses a config file readable by others with exit 2 (a local problem, not authentication) and a chmod 600 hint', async () => {
    chmodSync(configFile, 0o644);
    try {
      const result = await bare(['balance']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('chmod 600');
      expectNoStackTrace(result);
    } finally {
      chmodSync(configFile, 0o600);
    }
  });

  it('refuses a config folder readable by others with exit 2 and a chmod 700 hint', async () => {
    chmodSync(world.configDir, 0o755);
    try {
      const result = await bare(['balance']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`chmod 700 '${world.configDir}'`);
      expectNoStackTrace(result);
    } finally {
      chmodSync(world.configDir, 0o700);
    }
  });

  it('refuses --base-url http:// for a host that is not loopback with exit 2, before any connection', async () => {
    const before = world.sandbox.requestCount();
    const result = await world.run(['balance', '--verbose', '--base-url', 'http://example.com']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('https://');
    expect(result.stderr).not.toMatch(/^> /m);
    expect(world.sandbox.requestCount()).toBe(before);
    expectNoStackTrace(result);
  });

  it('accepts an https --base-url (it goes on to connect: here to a dead loopback port, exit 7)', async () => {
    const result = await world.run(['balance', '--retries', '0', '--base-url', await deadUrl('https')]);
    expect(result.code).toBe(7);
  });

  it('reports a corrupted config.json clearly, without a stack trace', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'energy-e2e-corrupt-')), 'config');
    try {
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, 'config.json'), '{"profiles": {', { mode: 0o600 });
      const result = await bare(['balance'], { env: { ENERGY_CONFIG_DIR: dir, HOME: dir } });
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBe(1);
      expect(result.stderr).toContain(join(dir, 'config.json'));
      expect(result.stderr).not.toMatch(/internal error/);
      expectNoStackTrace(result);
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('never quotes a corrupted file, which may hold the secret', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'energy-e2e-corrupt-')), 'config');
    try {
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, 'config.json'), '{"profiles":{"default":{"api-secret":SUPERSECRET-0123456789"}}', {
        mode: 0o600,
      });
      const result = await bare(['balance'], { env: { ENERGY_CONFIG_DIR: dir, HOME: dir } });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/not valid JSON/);
      expect(result.stderr).not.toMatch(/SUPERSECRE/);
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });

  it('names the path, with exit 2, when the config folder cannot be used', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'energy-e2e-notdir-'));
    try {
      const file = join(parent, 'a-file');
      writeFileSync(file, 'x');
      const result = await bare(['config', 'set', 'api-key', 'k1234567'], {
        env: { ENERGY_CONFIG_DIR: join(file, 'config') },
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/cannot create the config folder .*a-file\/config: a part of the path is a file/);
      expect(result.stderr).not.toMatch(/internal error/);
      expectNoStackTrace(result);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('creates nothing when it only reads settings', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'energy-e2e-noread-'));
    try {
      const dir = join(parent, 'config');
      const result = await bare(['config', 'list', '--json'], { env: { ENERGY_CONFIG_DIR: dir } });
      expect(result.code).toBe(0);
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('does not echo a value glued to an unknown setting name', async () => {
    const result = await bare(['config', 'set', 'api-secret=hunter2-hunter2-hunter2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown setting "api-secret\.\.\."/);
    expect(result.stderr).not.toContain('hunter2');
  });
});

describe('a key and a secret from different places', () => {
  it('says so with a 401', async () => {
    await bare(['config', 'set', 'api-secret', '--profile', 'mixed'], { input: 'a-secret-that-does-not-match-0000\n' });
    const result = await world.run(['--profile', 'mixed', 'balance'], { env: { ENERGY_API_SECRET: undefined } });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /the API key comes from the environment and the secret from the profile \(profile mixed\)/,
    );
  });
});
