/**
 * Loads the bundled program (dist/bin/main.cjs, light.cjs) with V8's compiled code kept between runs, so
 * that a start does not compile the bundle again: it is compiled as a `vm.Script` with the `cachedData` of an
 * earlier run, and a run that had none (or had it refused) writes what it compiled once it has run, so the
 * cache holds every function the run used. On every Node line: Node 22.1+'s own compile cache
 * (`module.enableCompileCache`) writes its cache as the module is compiled, before it runs, so each run
 * compiled every function again (and parsed every regular expression in them): `balance --json` cost ~10 %
 * more instructions with it on Node 22, `options --json` ~38 % (issue 48, measured with callgrind).
 * The folder is `$XDG_CACHE_HOME/energy` (else `~/.cache/energy`), used only when it is a real folder of
 * this user that nobody else can write, and a cache file only when it is a regular file of this user that
 * nobody else can write: compiled code is run as it is, so it must come from this user alone. A cache file
 * is named after the bundle's inode, size and times and the Node version, so a rebuilt bundle never meets an
 * old cache. It starts with the SHA-256 of the rest: V8 (a release build) does not check its data's checksum,
 * and a damaged cache would crash the process, so a file whose digest does not match is ignored. V8 refuses
 * one made by another V8 version or flags; an ignored or refused cache is written again (a temporary file
 * renamed into place, so that a reader never sees half of one).
 * Nothing here may fail or hang a run: any error means the bundle is loaded as usual, and anything in the
 * cache that is not a regular file (a FIFO, whose open() would block for ever, deaf to SIGTERM; a socket, a
 * link) is never opened: ours is opened with O_NONBLOCK.
 */
import { isOurs } from '../storage/private-cache-dir.js';
import { WRAPPED_HEAD } from './bundle-wrapper.js';

/** Cache files larger than this are not read (the bundle's is ~1 MB). */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;
/** The SHA-256 of the cached data, before it in the file. */
const DIGEST_BYTES = 32;
/** CommonJS's own wrapper, for a file the build did not wrap (bundle-wrapper.ts). */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_TAIL = '\n});';

type Fs = typeof import('node:fs');

/** Tests' handles on requireCached. */
export interface CacheOptions {
  /** Runs the cache's write when the process exits (default: process 'exit'). */
  atExit?: (write: () => void) => void;
  /** Told when the file had no cache it could use (its own is written at exit). */
  uncached?: () => void;
}

/** Node's CommonJS module class, as much of node:module as this file uses. */
interface ModuleClass {
  new (id: string): NodeJS.Module;
  createRequire(file: string): NodeJS.Require;
}

/**
 * Node's CommonJS module class: the constructor of the entry's own `module` where the entry is CommonJS (the
 * bundle), else node:module's. The public node:module is not otherwise loaded, and loading it for its two
 * names cost every command 0.2-0.3 ms of CPU (issue 48); the class and its createRequire are the same ones.
 */
function moduleClass(): ModuleClass {
  const own = typeof module === 'object' && module !== null ? (module.constructor as Partial<ModuleClass>) : undefined;
  if (typeof own?.createRequire === 'function') return own as ModuleClass;
  return process.getBuiltinModule('node:module').Module as unknown as ModuleClass;
}

/** `require(file)` of the bundle, with its compiled code cached in `cacheDir` (undefined: no cache). */
export function requireCached(file: string, cacheDir: string | undefined, how: CacheOptions = {}): unknown {
  // The built bundle's own require (its vendor files resolve beside it): a file of the build, not a source import.
  const bundleRequire = moduleClass().createRequire(file);
  if (cacheDir === undefined) return bundleRequire(file);
  let loaded: { exports: unknown } | undefined;
  try {
    const atExit = how.atExit ?? ((write: () => void) => process.once('exit', write));
    loaded = loadThroughScript(file, cacheDir, bundleRequire, atExit, how.uncached);
  } catch {
    loaded = undefined;
  }
  return loaded === undefined ? bundleRequire(file) : loaded.exports;
}

/** Compiles with the cached data when there is some; undefined when the bundle cannot be read. */
function loadThroughScript(
  file: string,
  cacheDir: string,
  bundleRequire: NodeJS.Require,
  atExit: (write: () => void) => void,
  uncached: (() => void) | undefined,
): { exports: unknown } | undefined {
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const vm = process.getBuiltinModule('node:vm');
  const bundle = fs.statSync(file, { bigint: true });
  const cacheFile = path.join(cacheDir, cacheFileName(file, bundle));
  const source = fs.readFileSync(file, 'utf8');
  const cachedData = readCache(fs, cacheFile);
  // The build's files come wrapped: their text is compiled as read, not copied into a joined one.
  const script = new vm.Script(source.startsWith(WRAPPED_HEAD) ? source : `${WRAPPER_HEAD}${source}${WRAPPER_TAIL}`, {
    filename: file,
    ...(cachedData !== undefined && { cachedData }),
  });
  const wrapper = script.runInThisContext() as unknown;
  if (typeof wrapper !== 'function') return undefined;
  // Written once the run is over, so that it holds the functions this run compiled too, those that came from
  // the cache included: a rewrite adds to what the cache held.
  let writing = false;
  const writeAtExit = () => {
    if (writing) return;
    writing = true;
    atExit(() => writeCache(fs, cacheFile, () => script.createCachedData()));
  };
  // A module as require() makes it, and in require's cache, so that the bundle is one instance whichever way.
  const Module = moduleClass();
  const module = new Module(file);
  module.filename = file;
  bundleRequire.cache[file] = module;
  try {
    // A run that needs a file of the build that no run before it needed (a state URL's pg, say) takes code
    // paths the cache lacks: this bundle's cache is written again, with them.
    const require = siblingsCached(bundleRequire, path.dirname(file), cacheDir, { atExit, uncached: writeAtExit });
    wrapper.call(module.exports, module.exports, require, module, file, path.dirname(file));
  } catch (error) {
    delete bundleRequire.cache[file];
    throw error;
  }
  module.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected === true) {
    writeAtExit();
    uncached?.();
  }
  return module;
}

/**
 * The bundle's require, but the files of the build beside it (`./vendor/pg.cjs`, `./sandbox.cjs`…) come
 * through the cache too: pg's 85 kB compiled again at every run was most of what a state URL cost (issue 48).
 * Once loaded, a file is require's (its cache), as it would be.
 */
function siblingsCached(
  bundleRequire: NodeJS.Require,
  dir: string,
  cacheDir: string,
  how: CacheOptions,
): NodeJS.Require {
  const path = process.getBuiltinModule('node:path');
  const require = (id: string): unknown => {
    if (!id.startsWith('./') || !id.endsWith('.cjs')) return bundleRequire(id);
    const sibling = path.join(dir, id);
    const known = bundleRequire.cache[sibling];
    if (known !== undefined) return known.exports;
    return requireCached(sibling, cacheDir, how);
  };
  return Object.assign(require, bundleRequire) as NodeJS.Require;
}

/** `…/main.cjs` → `main.cjs.<folder>.<inode>-<size>-<mtime>-<ctime>.<node version>-<arch>.v8`: a new bundle, a new name. */
export function cacheFileName(file: string, stat: import('node:fs').BigIntStats): string {
  const path = process.getBuiltinModule('node:path');
  const identity = [stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].map((n) => n.toString(36)).join('-');
  return `${path.basename(file)}.${folderTag(path.dirname(file))}.${identity}.${process.version}-${process.arch}.v8`;
}

/**
 * The bundle's folder as a short tag (FNV-1a): two installs of energy (a global one, a project's) share the
 * cache folder, and each replaces only its own caches, not the other's at every run.
 */
function folderTag(folder: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < folder.length; i += 1) hash = Math.imul(hash ^ folder.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(36);
}

/** The cache file's bytes, or undefined when it is missing, too large, not a regular file, or not ours alone. */
export function readCache(fs: Fs, cacheFile: string): Buffer | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  let fd: number | undefined;
  try {
    // O_NONBLOCK: a FIFO in its place would block open() until a writer came (a regular file ignores it).
    fd = fs.openSync(
      cacheFile,
      fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0),
    );
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || !isOurs(stat, uid) || stat.size <= DIGEST_BYTES || stat.size > MAX_CACHE_BYTES)
      return undefined;
    const data = Buffer.alloc(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = fs.readSync(fd, data, read, data.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    const cached = data.subarray(DIGEST_BYTES);
    return digest(cached).equals(data.subarray(0, DIGEST_BYTES)) ? cached : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Writes the cache atomically (a private temporary file renamed into place); old caches of the bundle go. */
export function writeCache(fs: Fs, cacheFile: string, data: () => Buffer): void {
  const path = process.getBuiltinModule('node:path');
  const dir = path.dirname(cacheFile);
  const temporary = `${cacheFile}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    const cached = data();
    fs.writeFileSync(temporary, Buffer.concat([digest(cached), cached]), { flag: 'wx', mode: 0o600 });
    fs.renameSync(temporary, cacheFile);
  } catch {
    try {
      fs.unlinkSync(temporary);
    } catch {
      // Nothing was written.
    }
    return;
  }
  // Caches of earlier builds of the same bundle, for this Node, are of no use any more (another Node's are:
  // a machine with two Node versions must not have each remove the other's at every run).
  const prefix = `${path.basename(cacheFile).split('.').slice(0, 3).join('.')}.`;
  const suffix = `.${process.version}-${process.arch}.v8`;
  try {
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith(suffix) && name !== path.basename(cacheFile))
        fs.unlinkSync(path.join(dir, name));
    }
  } catch {
    // Only tidying.
  }
}

function digest(data: Buffer): Buffer {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(data).digest();
}
