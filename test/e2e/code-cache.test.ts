/**
 * The built CLI keeps V8's compiled code of its bundle in the user's private cache folder
 * ($XDG_CACHE_HOME/energy): Node 20 through its own cache file, Node 22.1+ through Node's compile cache
 * there (not in the shared temporary folder). A damaged cache changes nothing of a run but its speed, and
 * a folder others can write is left alone.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';

/** Node 22.1+ has its own compile cache, which the CLI points at its folder. */
const NODE_CACHE =
  typeof (process.getBuiltinModule('node:module') as { enableCompileCache?: unknown }).enableCompileCache ===
  'function';

let home: string;
let folder: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'energy-code-cache-e2e-'));
  folder = join(home, 'cache', 'energy');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function exitCodes(): Promise<string> {
  const result = await runCli(['exit-codes', '--json'], {
    env: { ...baseEnv(join(home, 'config')), XDG_CACHE_HOME: join(home, 'cache') },
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

const v8Files = () => readdirSync(folder).filter((name) => name.endsWith('.v8'));

describe.skipIf(NODE_CACHE)('the code cache on Node 20', () => {
  it('is written once into a private folder, then used as it is', async () => {
    const output = await exitCodes();
    expect(JSON.parse(output).exit_codes[0]).toEqual({ code: 0, meaning: 'success' });
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(v8Files()).toHaveLength(1);
    const file = join(folder, v8Files()[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = statSync(file);
    expect(await exitCodes()).toBe(output);
    expect(statSync(file).ino).toBe(written.ino);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);
  });

  it('a damaged cache (which would crash V8) changes nothing of the run, and is written again', async () => {
    const output = await exitCodes();
    const file = join(folder, v8Files()[0]!);
    const bytes = readFileSync(file);
    for (let i = 1000; i < 1400; i += 1) bytes[i]! ^= 0x5a;
    writeFileSync(file, bytes);
    const damaged = statSync(file).ino;
    expect(await exitCodes()).toBe(output);
    expect(statSync(join(folder, v8Files()[0]!)).ino).not.toBe(damaged);
  });
});

describe.skipIf(!NODE_CACHE)("Node's compile cache on Node 22.1+", () => {
  it('is kept in the private folder', async () => {
    await exitCodes();
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(folder, 'node')).length).toBeGreaterThan(0);
  });
});

it('a cache folder others can write is not used', async () => {
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o777);
  await exitCodes();
  expect(readdirSync(folder)).toEqual([]);
});
