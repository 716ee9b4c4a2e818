/**
 * The suite's own environment (test/setup/isolated-env.ts): a test never sees the developer's HOME, XDG
 * folders or ENERGY_* variables, so their `default` profile cannot be read, written or turn a test red.
 */
import { existsSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir } from '../../src/config/paths.js';
import { stateDir } from '../../src/journal/state-dir.js';

const inside = (path: string, folder: string) => !relative(folder, path).startsWith('..');

describe('the environment every test runs in', () => {
  it("HOME is a fresh temporary folder, not the user's", () => {
    const home = process.env.HOME!;
    expect(home).not.toBe(userInfo().homedir);
    expect(inside(home, tmpdir())).toBe(true);
    expect(home).toMatch(/energy-test-home-/);
  });

  it('the XDG folders are inside it, and the config and state folders hold nothing', () => {
    const home = process.env.HOME!;
    expect(process.env.XDG_CONFIG_HOME).toBe(join(home, '.config'));
    expect(process.env.XDG_STATE_HOME).toBe(join(home, '.local', 'state'));
    expect(process.env.XDG_CACHE_HOME).toBe(join(home, '.cache'));
    expect(configDir(process.env)).toBe(join(home, '.config', 'energy'));
    expect(existsSync(configDir(process.env))).toBe(false);
    expect(inside(stateDir(process.env), home)).toBe(true);
  });

  it('no ENERGY_* variable of the shell reaches a test (the suite’s own ENERGY_TESTS_* excepted)', () => {
    const seen = Object.keys(process.env).filter((name) => name.startsWith('ENERGY_'));
    expect(seen.filter((name) => !name.startsWith('ENERGY_TESTS_'))).toEqual([]);
  });
});
