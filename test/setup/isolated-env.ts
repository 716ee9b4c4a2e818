/**
 * Every test file runs as a user with nothing configured: HOME and the XDG folders are fresh temporary
 * folders, and no ENERGY_* variable of the developer's shell is seen (ENERGY_TESTS_*, which steer the suite
 * itself, excepted). So a developer's own `~/.config/energy` (a `default` profile, a real server) is never
 * read, never written, and cannot turn a test red. Tests that spawn the CLI pass on this environment or
 * build their own (helpers/cli.ts). Vitest runs this file (vitest.config.ts `setupFiles`) before each test
 * file, in the worker that runs it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** Variables of the suite itself (machine-needs.ts reads ENERGY_TESTS_REQUIRE_ALL): kept. */
const SUITE_VARIABLE = /^ENERGY_TESTS_/;

const home = mkdtempSync(join(tmpdir(), 'energy-test-home-'));
for (const name of Object.keys(process.env)) {
  if (name.startsWith('ENERGY_') && !SUITE_VARIABLE.test(name)) delete process.env[name];
}
const folders = {
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_STATE_HOME: join(home, '.local', 'state'),
  XDG_CACHE_HOME: join(home, '.cache'),
};
for (const [name, path] of Object.entries(folders)) {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  process.env[name] = path;
}

afterAll(() => rmSync(home, { recursive: true, force: true }));
