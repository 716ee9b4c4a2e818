/**
 * The compiled-code cache of the bundle (src/app/code-cache.ts): used only from a folder and a file that are
 * this user's alone; a damaged, stale or foreign cache is ignored (never run), and written again atomically.
 * The bundle here is a small CommonJS file of the test's own, loaded through the vm.Script path on any Node.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { WRAPPED_HEAD, wrapBundle } from '../../../src/app/bundle-wrapper.js';
import { readCache, requireCached, writeCache } from '../../../src/app/code-cache.js';
import { privateCacheDir } from '../../../src/storage/private-cache-dir.js';

let root: string;
let cacheDir: string;
let bundle: string;

beforeEach(() => {
  root = fs.mkdtempSync(join(tmpdir(), 'energy-code-cache-'));
  cacheDir = join(root, 'cache');
  fs.mkdirSync(cacheDir, { mode: 0o700 });
  fs.mkdirSync(join(root, 'bin'));
  bundle = join(root, 'bin', 'main.cjs');
  fs.writeFileSync(join(root, 'bin', 'dep.js'), 'module.exports = 40;\n');
  writeBundle('');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A bundle with enough functions for V8 to cache, which requires a file beside it (not a .cjs: see below). */
function writeBundle(extra: string): void {
  const functions = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  fs.writeFileSync(
    bundle,
    `${functions}\nmodule.exports = { answer: f2(require('./dep.js')), dir: __dirname };${extra}\n`,
  );
}

/** Loads the bundle; `writes` counts the cache writes it asked for (run here, as at the process's exit). */
function load(): { exports: { answer: number; dir: string }; writes: number } {
  let writes = 0;
  const exports = requireCached(bundle, cacheDir, {
    atExit: (write) => {
      writes += 1;
      write();
    },
  }) as { answer: number; dir: string };
  return { exports, writes };
}

const cacheFiles = () => fs.readdirSync(cacheDir).filter((name) => name.endsWith('.v8'));
const cachePath = () => join(cacheDir, cacheFiles()[0]!);

describe('requireCached (compiled through vm.Script, on every Node line)', () => {
  it('runs the bundle as require would, writes a private cache once, and the next run uses it', () => {
    const first = load();
    expect(first.exports).toEqual({ answer: 42, dir: join(root, 'bin') });
    expect(first.writes).toBe(1);
    expect(cacheFiles()).toHaveLength(1);
    expect(fs.statSync(cachePath()).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(cacheDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // Accepted by V8: nothing to write again.
    const second = load();
    expect(second.exports.answer).toBe(42);
    expect(second.writes).toBe(0);
  });

  it('a damaged cache is never handed to V8 (it would crash): ignored, and written again', () => {
    load();
    const damaged = fs.readFileSync(cachePath());
    for (let i = 200; i < 260 && i < damaged.length; i += 1) damaged[i]! ^= 0x5a;
    fs.writeFileSync(cachePath(), damaged);
    const run = load();
    expect(run.exports.answer).toBe(42);
    expect(run.writes).toBe(1);
    expect(load().writes).toBe(0);
  });

  it('a cache cut short, or empty, is ignored', () => {
    load();
    fs.truncateSync(cachePath(), 40);
    expect(load().writes).toBe(1);
    fs.truncateSync(cachePath(), 0);
    expect(load().writes).toBe(1);
  });

  it('a rebuilt bundle gets a cache of its own, and the old one goes', () => {
    load();
    const old = cacheFiles()[0];
    writeBundle('\nmodule.exports.answer = 43;');
    const run = load();
    expect(run.exports.answer).toBe(43);
    expect(run.writes).toBe(1);
    expect(cacheFiles()).toHaveLength(1);
    expect(cacheFiles()[0]).not.toBe(old);
  });

  it("another install's cache of a bundle of the same name stays (each install replaces only its own)", () => {
    load();
    const mine = cacheFiles()[0]!;
    const parts = mine.split('.');
    const other = [...parts.slice(0, 2), 'otherplace', ...parts.slice(3)].join('.');
    fs.writeFileSync(join(cacheDir, other), 'another install');
    writeBundle('\nmodule.exports.answer = 45;');
    expect(load().writes).toBe(1);
    expect(cacheFiles()).toContain(other);
    expect(cacheFiles()).not.toContain(mine);
  });

  it("another Node version's cache of the bundle stays: two Node lines on one machine do not remove each other's", () => {
    load();
    const mine = cacheFiles()[0]!;
    const other = mine.replace(`.${process.version}-${process.arch}.v8`, '.v99.0.0-x64.v8');
    expect(other).not.toBe(mine);
    fs.writeFileSync(join(cacheDir, other), 'another V8');
    writeBundle('\nmodule.exports.answer = 44;');
    expect(load().writes).toBe(1);
    expect(cacheFiles()).toContain(other);
    expect(cacheFiles()).not.toContain(mine);
    expect(cacheFiles()).toHaveLength(2);
  });

  it('a file of the build beside it (./x.cjs, as the vendor files) comes through the cache too, once', () => {
    const vendor = join(root, 'bin', 'vendor.cjs');
    fs.writeFileSync(
      vendor,
      `${Array.from({ length: 50 }, (_, i) => `function g${i}(x) { return x * ${i}; }`).join('\n')}\nmodule.exports = g2(21);\n`,
    );
    writeBundle("\nmodule.exports.vendor = require('./vendor.cjs'); module.exports.again = require('./vendor.cjs');");
    const first = load();
    expect(first.exports).toMatchObject({ answer: 42, vendor: 42, again: 42 });
    expect(first.writes).toBe(2);
    expect(cacheFiles().filter((name) => name.startsWith('vendor.cjs.'))).toHaveLength(1);
    expect(load().writes).toBe(0);
  });

  it('a run that is the first to need a file of the build beside it writes the cache of the bundle again', () => {
    const vendor = join(root, 'bin', 'vendor.cjs');
    fs.writeFileSync(vendor, 'module.exports = 42;\n');
    writeBundle("\nmodule.exports.later = () => require('./vendor.cjs');");
    expect(load().writes).toBe(1);
    let writes = 0;
    const exports = requireCached(bundle, cacheDir, {
      atExit: (write) => {
        writes += 1;
        write();
      },
    }) as { later: () => number };
    expect(writes).toBe(0);
    // Its code paths (here the function that requires it) were not in the bundle's cache: written again.
    expect(exports.later()).toBe(42);
    expect(writes).toBe(2);
    expect(exports.later()).toBe(42);
    expect(writes).toBe(2);
  });

  it('a cache file others can write is not used', () => {
    load();
    fs.chmodSync(cachePath(), 0o666);
    expect(readCache(fs, cachePath())).toBeUndefined();
    expect(load().writes).toBe(1);
    // Written again as a private file (renamed over the old one).
    expect(fs.statSync(cachePath()).mode & 0o777).toBe(0o600);
  });

  it('a cache file its group can write (0620) is not used, and is written again 0600', () => {
    load();
    fs.chmodSync(cachePath(), 0o620);
    const before = fs.statSync(cachePath()).ino;
    expect(readCache(fs, cachePath())).toBeUndefined();
    expect(load().writes).toBe(1);
    expect(fs.statSync(cachePath()).ino).not.toBe(before);
    expect(fs.statSync(cachePath()).mode & 0o777).toBe(0o600);
  });

  it("a bundle the build wrapped is compiled from the text as read (no copy joined to CommonJS's wrapper)", () => {
    const text = fs.readFileSync(bundle, 'utf8');
    fs.writeFileSync(bundle, wrapBundle(text));
    const compiled: string[] = [];
    const Script = vm.Script;
    vm.Script = class extends Script {
      constructor(code: string, options?: vm.ScriptOptions) {
        super(code, options);
        compiled.push(code);
      }
    };
    try {
      expect(load().exports).toEqual({ answer: 42, dir: join(root, 'bin') });
      expect(load().writes).toBe(0);
    } finally {
      vm.Script = Script;
    }
    expect(compiled).toEqual([wrapBundle(text), wrapBundle(text)]);
    expect(compiled[0]!.startsWith(WRAPPED_HEAD)).toBe(true);
  });

  it("a wrapped bundle required by Node's own loader runs as it would unwrapped", () => {
    fs.writeFileSync(bundle, wrapBundle(fs.readFileSync(bundle, 'utf8')));
    expect(createRequire(import.meta.url)(bundle)).toEqual({ answer: 42, dir: join(root, 'bin') });
  });

  it('no cache folder: the bundle is required as it is', () => {
    expect((requireCached(bundle, undefined) as { answer: number }).answer).toBe(42);
    expect(cacheFiles()).toEqual([]);
  });
});

describe('readCache and writeCache', () => {
  it('a symbolic link is not followed, a folder is not a cache', () => {
    writeCache(fs, join(cacheDir, 'real.v8'), () => Buffer.from('compiled code'));
    expect(readCache(fs, join(cacheDir, 'real.v8'))?.toString()).toBe('compiled code');
    fs.symlinkSync(join(cacheDir, 'real.v8'), join(cacheDir, 'link.v8'));
    expect(readCache(fs, join(cacheDir, 'link.v8'))).toBeUndefined();
    fs.mkdirSync(join(cacheDir, 'folder.v8'));
    expect(readCache(fs, join(cacheDir, 'folder.v8'))).toBeUndefined();
    expect(readCache(fs, join(cacheDir, 'missing.v8'))).toBeUndefined();
  });

  it('a write that fails leaves no file behind and throws nothing', () => {
    writeCache(fs, join(cacheDir, 'no-such-folder', 'x.v8'), () => Buffer.from('x'));
    writeCache(fs, join(cacheDir, 'y.v8'), () => {
      throw new Error('V8 could not serialise');
    });
    expect(fs.readdirSync(cacheDir)).toEqual([]);
  });
});

describe('privateCacheDir', () => {
  it('is $XDG_CACHE_HOME/energy, made private; else ~/.cache/energy; a relative XDG_CACHE_HOME is ignored', () => {
    const xdg = join(root, 'xdg');
    expect(privateCacheDir({ XDG_CACHE_HOME: xdg, HOME: root })).toBe(join(xdg, 'energy'));
    expect(fs.statSync(join(xdg, 'energy')).mode & 0o777).toBe(0o700);
    expect(privateCacheDir({ XDG_CACHE_HOME: 'relative', HOME: root })).toBe(join(root, '.cache', 'energy'));
    expect(privateCacheDir({})).toBeUndefined();
  });

  it('is not used when its group can write it (0770)', () => {
    const shared = join(root, 'shared');
    fs.mkdirSync(join(shared, 'energy'), { recursive: true });
    fs.chmodSync(join(shared, 'energy'), 0o770);
    expect(privateCacheDir({ XDG_CACHE_HOME: shared })).toBeUndefined();
  });

  it('is not used when others can write it, or when it is a symbolic link', () => {
    const open = join(root, 'open');
    fs.mkdirSync(join(open, 'energy'), { recursive: true });
    fs.chmodSync(join(open, 'energy'), 0o777);
    expect(privateCacheDir({ XDG_CACHE_HOME: open })).toBeUndefined();
    const linked = join(root, 'linked');
    fs.mkdirSync(linked);
    fs.symlinkSync(cacheDir, join(linked, 'energy'));
    expect(privateCacheDir({ XDG_CACHE_HOME: linked })).toBeUndefined();
  });

  it('is not used when a file of ours is in its place', () => {
    const filed = join(root, 'filed');
    fs.mkdirSync(filed);
    fs.writeFileSync(join(filed, 'energy'), '', { mode: 0o600 });
    expect(privateCacheDir({ XDG_CACHE_HOME: filed })).toBeUndefined();
  });
});
