#!/usr/bin/env node
// Bundles the CLI for a fast start, all CommonJS (Node 20 spends ~6 ms starting its ES module loader and
// ~0.7 ms per further ES module file; a CommonJS require() of one bundled file costs neither):
// - dist/bin/energy.cjs: the entry alone, answering `--version` and `--help` itself and requiring main.cjs
//   for everything else;
// - dist/bin/main.cjs: the program, commander and our code. Modules behind a dynamic import() (the HTTP
//   client, the sandbox, money) are bundled but evaluated only when first imported;
// - dist/bin/sandbox.cjs: the local spec server, required only by `energy sandbox` (it shares no classes
//   with the program, only types);
// - dist/bin/topics.cjs: the texts of the help topics, required only by `energy help <topic>`;
// - dist/bin/vendor/*.cjs: the heavy packages (decimal.js), each its own file, required only by the
//   commands that use them, so other commands do not even parse them.
// tsc still builds dist/ for the library and its types. Every build's metafile goes into dist/bin/meta.json
// (not shipped): scripts/notices.mjs writes the third-party notices and the SBOM from what it says was bundled.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build as esbuild } from 'esbuild';

const { wrapBundle } = await import('../dist/app/bundle-wrapper.js');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// The root help, rendered by the real program (tsc output) as commander prints it into a pipe: the
// fast path prints it without loading commander. test/e2e/fast-path.test.ts keeps the two identical.
const { buildProgram } = await import('../dist/app/program.js');
const { Context } = await import('../dist/commands/context.js');
const program = buildProgram(
  new Context({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} }),
  pkg.version,
);
let rootHelp = '';
program.configureOutput({ writeOut: (text) => (rootHelp += text), getOutHasColors: () => false });
program.outputHelp();
rmSync(new URL('../dist/bin', import.meta.url), { recursive: true, force: true });

/** Each build's inputs and outputs, merged: what every file of dist/bin/ was made from. */
const meta = { inputs: {}, outputs: {} };
async function build(options) {
  const result = await esbuild(options);
  Object.assign(meta.inputs, result.metafile.inputs);
  Object.assign(meta.outputs, result.metafile.outputs);
  return result;
}

const common = {
  bundle: true,
  metafile: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  // BUNDLE_PLAIN=1 node scripts/bundle.mjs: readable function names for --cpu-prof.
  minify: process.env.BUNDLE_PLAIN !== '1',
  logLevel: 'warning',
  outExtension: { '.js': '.cjs' },
  // import() becomes require(): no ES module loader at run time.
  supported: { 'dynamic-import': false },
  // version.ts reads package.json beside import.meta.url only when ENERGY_VERSION is not defined.
  define: {
    ENERGY_VERSION: JSON.stringify(pkg.version),
    ENERGY_ROOT_HELP: JSON.stringify(rootHelp),
    // The entry loads the program from this file beside it, with V8's compiled code cached (code-cache.ts).
    ENERGY_MAIN_BUNDLE: JSON.stringify('main.cjs'),
    ENERGY_LIGHT_BUNDLE: JSON.stringify('light.cjs'),
    'import.meta.url': 'undefined',
  },
};
// pg (the state store's driver) and its URL parser: loaded only where a postgresql:// state URL is configured,
// one file (pg carries the parser anyway): a second file cost each such run its own read, cache and compile.
const VENDOR = { 'decimal.js': 'decimal', pg: 'pg', 'pg-connection-string': 'pg' };

/** Points the program at its vendor files and the entry at main.cjs; drops commander's child_process. */
const layout = {
  name: 'energy-layout',
  setup(b) {
    b.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: './main.cjs', external: true }));
    // The sandbox is a program of its own (a server): its own file, compiled only by `energy sandbox`.
    b.onResolve({ filter: /^\.\.\/sandbox\/index\.js$/ }, () => ({ path: './sandbox.cjs', external: true }));
    // The help topics' texts: read by `energy help <topic>` only, not parsed by any other command.
    b.onResolve({ filter: /^\.\.\/help\/topics\.js$/ }, () => ({ path: './topics.cjs', external: true }));
    b.onResolve({ filter: /^(decimal\.js|pg|pg-connection-string)$/ }, (args) => ({
      path: `./vendor/${VENDOR[args.path]}.cjs`,
      external: true,
    }));
    // commander requires child_process (~3 ms) at load for executable subcommands, which we do not use.
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes('node_modules/commander') ? { path: 'child_process', namespace: 'unused' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'unused' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

// The entry on its own, so that `--version` and `--help` read one small file.
await build({ ...common, entryPoints: { energy: 'src/app/cli.ts' }, outdir: 'dist/bin', plugins: [layout] });
await build({ ...common, entryPoints: { main: 'src/app/main.ts' }, outdir: 'dist/bin', plugins: [layout] });
await build({ ...common, entryPoints: { sandbox: 'src/sandbox/index.ts' }, outdir: 'dist/bin', plugins: [layout] });
// The topics' texts as the build reads them from docs/ (src/help/doc-topics.ts), in place of the module that
// reads them: `energy help <topic>` neither reads nor renders Markdown.
const { readTopics } = await import('../dist/help/doc-topics.js');
const builtTopics = {
  name: 'energy-topics',
  setup(b) {
    b.onResolve({ filter: /^\.\/doc-topics\.js$/ }, () => ({ path: 'doc-topics', namespace: 'built-topics' }));
    b.onLoad({ filter: /.*/, namespace: 'built-topics' }, () => ({
      contents: `export const readTopics = () => (${JSON.stringify(readTopics())});`,
      loader: 'js',
    }));
  },
};
await build({
  ...common,
  entryPoints: { topics: 'src/help/topics.ts' },
  outdir: 'dist/bin',
  plugins: [builtTopics, layout],
});
// light.cjs: `balance` and `time` alone, without commander (src/app/light-run.ts decides when; light-main.ts
// runs them). Their command files import commander for their Command, which the light program never builds:
// an empty module in its place, so that not a byte of commander is read. Anything that did use it would fail
// every light run, and the e2e tests of balance and time run them.
const lightOnly = {
  name: 'energy-light',
  setup(b) {
    b.onResolve({ filter: /^commander$/ }, () => ({ path: 'commander', namespace: 'unused' }));
    // The state store, the journal and the TRON node: imported by the context only when a command asks for
    // them, which balance and time never do. A module that says so in their place, never evaluated.
    b.onResolve({ filter: /^\.\.\/(state\/open-store|tron\/tron-node|journal\/record)\.js$/ }, (args) => ({
      path: args.path,
      namespace: 'not-light',
    }));
    b.onLoad({ filter: /.*/, namespace: 'not-light' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in the light bundle`)});`,
      loader: 'js',
    }));
  },
};
await build({
  ...common,
  entryPoints: { light: 'src/app/light-main.ts' },
  outdir: 'dist/bin',
  plugins: [lightOnly, layout],
});
/**
 * pg requires node:dns as it loads (lib/connection-parameters.js) for one use: the native driver's libpq string
 * (getLibpqConnectionString), which the JavaScript client never builds; its sockets resolve a host name through
 * node:net, as before. node:dns is loaded when that one use first reads it, not on every stateful run.
 */
const lazyDns = {
  name: 'energy-lazy-dns',
  setup(b) {
    b.onResolve({ filter: /^dns$/ }, (args) =>
      /[\\/]pg[\\/]lib[\\/]connection-parameters\.js$/.test(args.importer)
        ? { path: 'dns', namespace: 'lazy-dns' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-dns' }, () => ({
      contents: `module.exports = { get lookup() { return require('node:dns').lookup; } };`,
      loader: 'js',
    }));
  },
};
/**
 * pg's crypto helpers (lib/crypto/utils.js) take Node's Web Crypto as they load (crypto.webcrypto: Node's whole
 * WebCrypto implementation, 0.15-0.35 ms of CPU) for scram and md5 logins alone; a session over a socket with
 * trust or peer authentication never asks for them. Required by pg's client and its SCRAM module, they are
 * evaluated when a login first uses one of them.
 */
const lazyPgCrypto = {
  name: 'energy-lazy-pg-crypto',
  setup(b) {
    b.onResolve({ filter: /^\.\/(crypto\/)?utils$/ }, async (args) => {
      const inPg = /[\\/]pg[\\/]lib[\\/](client|crypto[\\/]sasl)\.js$/.test(args.importer);
      if (!inPg || (args.path === './utils' && !args.importer.includes('sasl'))) return undefined;
      const real = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir });
      return { path: 'pg/lib/crypto/utils.js', namespace: 'lazy-pg-crypto', pluginData: dirname(real.path) };
    });
    // Its own file by a name that this plugin does not take again (utils.js), read when a login first asks.
    b.onLoad({ filter: /.*/, namespace: 'lazy-pg-crypto' }, (args) => ({
      contents: `let real; module.exports = new Proxy({}, { get: (_, name) => (real ??= require('./utils.js'))[name] });`,
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};
// The package's default export as module.exports, and as its own .default, so that both `import X from`
// and `const { default: X } = await import()` (each through esbuild's interop) find it.
const defaultExport = (name) =>
  `const m = require(${JSON.stringify(name)}); const x = m.default ?? m; if (x.default === undefined) x.default = x; module.exports = x;`;
const VENDOR_FILES = {
  decimal: defaultExport('decimal.js'),
  // pg, and beside its exports pg-connection-string's parse: `import('pg-connection-string')` takes its named
  // export from the same file.
  pg: `${defaultExport('pg')} x.parse = require('pg-connection-string').parse;`,
};
for (const [file, contents] of Object.entries(VENDOR_FILES)) {
  await build({
    ...common,
    stdin: { contents, resolveDir: process.cwd(), sourcefile: `${file}.cjs` },
    outfile: `dist/bin/vendor/${file}.cjs`,
    outExtension: undefined,
    // pg's native binding is optional (pg.native) and not installed.
    external: ['pg-native'],
    plugins: [lazyDns, lazyPgCrypto],
  });
}
writeFileSync(new URL('../dist/bin/meta.json', import.meta.url), JSON.stringify(meta));
// ASCII only (esbuild escapes strings, not regular expressions): one character beyond it and V8 holds the
// whole source as two-byte text, twice the memory, which cost `balance` a young-generation collection (issue 48).
for (const file of Object.keys(meta.outputs).filter((name) => name.endsWith('.cjs'))) {
  const at = readFileSync(file).findIndex((byte) => byte > 0x7f);
  if (at !== -1 && process.env.BUNDLE_PLAIN !== '1')
    throw new Error(`${file}: a byte beyond ASCII at ${at} (write it as a \\u escape in the source)`);
  // Every file but the entry is loaded through the code cache, which compiles a wrapped file's text as it
  // is read (src/app/bundle-wrapper.ts): CommonJS's wrapper joined to it at run time was a second copy.
  if (file !== 'dist/bin/energy.cjs') writeFileSync(file, wrapBundle(readFileSync(file, 'utf8')));
}
