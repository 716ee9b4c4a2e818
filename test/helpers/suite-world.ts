/**
 * The world most e2e files share: created before the first test of the suite (the file, or the describe it
 * is called in) and closed after the last, with the hooks registered where this is called, in the order of
 * the file's other hooks. Most e2e files wrote these five lines out; this is them once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { createWorld, type World } from './world.js';

/** A handle on the suite's world; reading it before the suite's beforeAll has run throws. */
export function worldForSuite(options: SandboxOptions = {}): World {
  let world: World | undefined;
  beforeAll(async () => {
    world = await createWorld(options);
  });
  afterAll(async () => world?.close());
  const current = (): World => {
    if (world === undefined) throw new Error('the suite world is read before its beforeAll ran');
    return world;
  };
  return {
    get sandbox() {
      return current().sandbox;
    },
    get configDir() {
      return current().configDir;
    },
    get stateDir() {
      return current().stateDir;
    },
    get env() {
      return current().env;
    },
    run: (args, runOptions) => current().run(args, runOptions),
    spawn: (args, runOptions) => current().spawn(args, runOptions),
    close: () => current().close(),
  };
}

/** A private folder for the suite's files (batch inputs, spools), made before its first test, removed after. */
export function tempDirForSuite(prefix: string): { readonly path: string } {
  let path: string | undefined;
  beforeAll(() => {
    path = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    if (path !== undefined) rmSync(path, { recursive: true, force: true });
  });
  return {
    get path() {
      if (path === undefined) throw new Error('the suite folder is read before its beforeAll ran');
      return path;
    },
  };
}
