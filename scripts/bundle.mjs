#!/usr/bin/env node
// Bundles the CLI for a fast start, in two builds:
// - dist/bin/energy.cjs: the entry alone, CommonJS (Node starts it faster than an ES module), answering
//   `--version` and `--help` itself and importing main.js for everything else;
// - dist/bin/main.js and chunks/: the program, ESM with code splitting, so that the packages behind a
//   dynamic import() (the HTTP client, conf, chalk, cli-table3, decimal.js, the sandbox) load only when a
//   command needs them.
// tsc still builds dist/ for the library and its types.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// The root help, rendered by the real program (tsc output) as commander prints it into a pipe: the
// fast path prints it without loading commander. test/e2e/fast-path.test.ts keeps the two identical.
const { buildProgram } = await import('../dist/program.js');
const { Context } = await import('../dist/commands/context.js');
const program = buildProgram(new Context({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} }), pkg.version);
let rootHelp = '';
program.configureOutput({ writeOut: (text) => (rootHelp += text), getOutHasColors: () => false });
program.outputHelp();
rmSync(new URL('../dist/bin', import.meta.url), { recursive: true, force: true });

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  minify: true,
  logLevel: 'warning',
  define: { ENERGY_VERSION: JSON.stringify(pkg.version), ENERGY_ROOT_HELP: JSON.stringify(rootHelp) },
};
// The entry on its own, with no chunk imports, so that `--version` and `--help` read one small file;
// it loads main.js (the second build) only for everything else.
await build({ ...common, format: 'cjs', entryPoints: { energy: 'src/cli.ts' }, outExtension: { '.js': '.cjs' }, outdir: 'dist/bin', external: ['./main.js'] });
const result = await build({
  ...common,
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist/bin',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  metafile: true,
  // Bundled CommonJS packages (commander, cli-table3) call require() for Node built-ins.
  banner: { js: "import { createRequire as __energyCreateRequire } from 'node:module'; const require = __energyCreateRequire(import.meta.url);" },
});
writeFileSync(new URL('../dist/bin/meta.json', import.meta.url), JSON.stringify(result.metafile));
