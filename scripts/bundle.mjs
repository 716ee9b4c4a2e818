#!/usr/bin/env node
// Bundles the CLI for a fast start: one ESM entry with code splitting, so that the packages behind a
// dynamic import() (the HTTP client, conf, chalk, cli-table3, decimal.js, the sandbox) land in chunks that load
// only when a command needs them. tsc still builds dist/ for the library and its types.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist/bin', import.meta.url), { recursive: true, force: true });

const result = await build({
  entryPoints: { energy: 'src/cli.ts' },
  outdir: 'dist/bin',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  minify: true,
  keepNames: true,
  metafile: true,
  logLevel: 'warning',
  define: { ENERGY_VERSION: JSON.stringify(pkg.version) },
  // Bundled CommonJS packages (commander, cli-table3) call require() for Node built-ins.
  banner: { js: "import { createRequire as __energyCreateRequire } from 'node:module'; const require = __energyCreateRequire(import.meta.url);" },
});
writeFileSync(new URL('../dist/bin/meta.json', import.meta.url), JSON.stringify(result.metafile));
