/**
 * The built CLI keeps V8's compiled code of its bundle in the user's private cache folder
 * ($XDG_CACHE_HOME/energy) through its own cache file, on every Node line (not Node's compile cache, nor the
 * shared temporary folder). A damaged cache changes nothing of a run but its speed, and
 * a folder others can write is left alone.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, runCli, spawnCli } from '../helpers/cli.js';

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

/**
 * The same command, killed (SIGKILL) if it has not ended within 20 s: a run blocked in open() on a FIFO never
 * ends, and is deaf to SIGTERM. 20 s is a bound on a hang, not a timing: the run takes well under a second.
 */
async function exitCodesUnblocked(): Promise<string> {
  const running = spawnCli(['exit-codes', '--json'], {
    env: { ...baseEnv(join(home, 'config')), XDG_CACHE_HOME: join(home, 'cache') },
  });
  const killer = setTimeout(() => running.child.kill('SIGKILL'), 20_000);
  const result = await running.result.finally(() => clearTimeout(killer));
  expect(result.code, `blocked until killed? ${result.stderr}`).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

/** Replaces a cache file with a FIFO (nobody writes to it: a blocking open() would wait for ever). */
function fifoInPlaceOf(file: string): void {
  unlinkSync(file);
  execFileSync('mkfifo', [file]);
  expect(lstatSync(file).isFIFO()).toBe(true);
}

/** The program's cache files (the files it requires beside it, such as topics.cjs, have their own). */
const v8Files = () => readdirSync(folder).filter((name) => name.startsWith('main.cjs.') && name.endsWith('.v8'));

describe('the code cache', () => {
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

describe('the code cache, a FIFO in its place', () => {
  it('neither blocks nor fails a run, and the cache is written again as a regular file', async () => {
    const output = await exitCodes();
    const file = join(folder, v8Files()[0]!);
    fifoInPlaceOf(file);
    expect(await exitCodesUnblocked()).toBe(output);
    expect(lstatSync(join(folder, v8Files()[0]!)).isFile()).toBe(true);
  }, 30_000);
});

it('a cache folder others can write is not used', async () => {
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o777);
  await exitCodes();
  expect(readdirSync(folder)).toEqual([]);
});
