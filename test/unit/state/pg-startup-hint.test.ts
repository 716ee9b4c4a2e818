import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HINT_MS, startupHint } from '../../../src/state/pg/pg-startup-hint.js';

const target = { host: '/run/pgbouncer', port: '6432', database: 'energy', user: 'fleet' };

/** A HOME whose private cache folder is there (the code cache makes it on every run of the bundle). */
function home(mode = 0o700): { HOME: string; dir: string } {
  const HOME = mkdtempSync(join(tmpdir(), 'energy-hint-'));
  const dir = join(HOME, '.cache', 'energy');
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, mode);
  return { HOME, dir };
}

describe('the note that startup options do not reach a server', () => {
  it('is not there until noted; then it is, for that server, port, database and user only', () => {
    const { HOME, dir } = home();
    expect(startupHint({ HOME }, target).optionsLost).toBe(false);
    startupHint({ HOME }, target).note();
    expect(startupHint({ HOME }, target).optionsLost).toBe(true);
    expect(startupHint({ HOME }, { ...target, port: '5432' }).optionsLost).toBe(false);
    expect(startupHint({ HOME }, { ...target, user: 'other' }).optionsLost).toBe(false);
    // Named after a digest: neither the socket's path nor the user is in the name.
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^pg-startup-options-lost\.[0-9a-f]{32}$/)]);
  });

  it('is believed for a day, then asked again', () => {
    const { HOME, dir } = home();
    startupHint({ HOME }, target).note();
    const [name] = readdirSync(dir);
    const dayAgo = (Date.now() - HINT_MS - 60_000) / 1000;
    utimesSync(join(dir, name!), dayAgo, dayAgo);
    expect(startupHint({ HOME }, target).optionsLost).toBe(false);
    // Noted again (the server refused again): believed again.
    startupHint({ HOME }, target).note();
    expect(startupHint({ HOME }, target).optionsLost).toBe(true);
    // From more than a minute ahead (the clock set back since): not believed.
    const ahead = (Date.now() + 120_000) / 1000;
    utimesSync(join(dir, name!), ahead, ahead);
    expect(startupHint({ HOME }, target).optionsLost).toBe(false);
  });

  it('is $XDG_CACHE_HOME/energy where that is set (absolute), as the code cache', () => {
    const { HOME } = home();
    const xdg = mkdtempSync(join(tmpdir(), 'energy-xdg-'));
    mkdirSync(join(xdg, 'energy'), { mode: 0o700 });
    startupHint({ HOME, XDG_CACHE_HOME: xdg }, target).note();
    expect(readdirSync(join(xdg, 'energy'))).toHaveLength(1);
    expect(startupHint({ HOME }, target).optionsLost).toBe(false);
    expect(startupHint({ HOME, XDG_CACHE_HOME: xdg }, target).optionsLost).toBe(true);
  });

  it('is neither written nor read in a folder others can write', () => {
    const { HOME, dir } = home(0o777);
    startupHint({ HOME }, target).note();
    expect(readdirSync(dir)).toEqual([]);
    chmodSync(dir, 0o700);
    startupHint({ HOME }, target).note();
    chmodSync(dir, 0o777);
    expect(startupHint({ HOME }, target).optionsLost).toBe(false);
    expect(startupHint({}, target).optionsLost).toBe(false);
  });

  it('makes the folder where there is none, private, as the code cache does (storage/private-cache-dir.ts)', () => {
    const bare = mkdtempSync(join(tmpdir(), 'energy-hint-'));
    startupHint({ HOME: bare }, target).note();
    expect(statSync(join(bare, '.cache', 'energy')).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(bare, '.cache', 'energy'))).toHaveLength(1);
    expect(startupHint({ HOME: bare }, target).optionsLost).toBe(true);
  });
});
