#!/usr/bin/env node
// Lints what tsc does not: the layering of docs/style (which module may import which package or layer),
// stdout writes outside output/, focused or skipped tests, and file size. No dependencies: it reads the
// import lines of every file under src/ and test/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const problems = [];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

// Each package may be imported only from these files or folders (the style guide's "only importer" rules).
const PACKAGE_OWNERS = {
  'decimal.js': ['src/money.ts'],
  // The one module that does network I/O, with its proxy tunnel (the sandbox is a server, not a client).
  'node:http': ['src/client/http.ts', 'src/client/proxy-tunnel.ts', 'src/sandbox/'],
  'node:https': ['src/client/http.ts', 'src/client/proxy-tunnel.ts'],
  'node:tls': ['src/client/proxy-tunnel.ts'],
  'node:net': ['src/client/proxy-tunnel.ts', 'src/sandbox/'],
};
// Layers a folder must not import from: dependencies point one way.
const FORBIDDEN_LAYERS = {
  'src/signing/': ['src/client/', 'src/config/', 'src/commands/', 'src/output/', 'src/sandbox/', 'src/errors.ts'],
  'src/client/': ['src/config/', 'src/commands/', 'src/output/', 'src/sandbox/'],
  'src/config/': ['src/commands/', 'src/output/', 'src/sandbox/'],
  'src/output/': ['src/commands/', 'src/config/', 'src/sandbox/'],
  'src/sandbox/': ['src/commands/', 'src/output/', 'src/config/'],
  // The TRON node client, beside the API client: its network I/O goes through src/client/http.ts.
  'src/tron/': ['src/config/', 'src/commands/', 'src/output/', 'src/sandbox/', 'src/signing/'],
  // ensure: read the chain, count what is in flight, buy through the journal; printing is the command's.
  'src/ensure/': ['src/commands/', 'src/sandbox/', 'src/config/'],
  // Durable files and locks: plain file-system mechanics, no knowledge of the API or the CLI.
  'src/storage/': ['src/client/', 'src/config/', 'src/commands/', 'src/output/', 'src/sandbox/', 'src/journal/', 'src/ordering/'],
  // The journal is local state: it never talks to the network and never prints.
  'src/journal/': ['src/client/', 'src/commands/', 'src/output/', 'src/sandbox/', 'src/ordering/'],
  // Batches: reading, planning and placing many orders; printing is the command's.
  'src/batch/': ['src/commands/', 'src/output/', 'src/sandbox/', 'src/config/'],
  // Ordering flows shared by commands (send journaled, consent, follow): below commands, above client/journal.
  'src/ordering/': ['src/commands/', 'src/sandbox/', 'src/config/'],
};
// Command files that may import sibling commands: the groups that only compose verbs.
const COMMAND_SHARED = new Set(['context.ts', 'arguments.ts', 'shell-words.ts']);
const COMMAND_GROUPS = { 'order.ts': /^order-/ };

const owns = (file, owners) => owners.some((owner) => file === owner || (owner.endsWith('/') && file.startsWith(owner)));

for (const path of files(join(root, 'src'))) {
  const file = relative(root, path).split(sep).join('/');
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  if (lines.length > 300) problems.push(`${file}: ${lines.length} lines; split it by job (limit 300)`);
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
    const spec = match[1];
    const pkg = spec.startsWith('.') ? undefined : spec.startsWith('node:') ? spec : spec.split('/')[0];
    if (pkg && PACKAGE_OWNERS[pkg] && !owns(file, PACKAGE_OWNERS[pkg])) {
      problems.push(`${file}: imports ${pkg}; only ${PACKAGE_OWNERS[pkg].join(', ')} may`);
    }
    if (!spec.startsWith('.')) continue;
    const target = relative(root, join(path, '..', spec)).split(sep).join('/').replace(/\.js$/, '.ts');
    for (const [layer, forbidden] of Object.entries(FORBIDDEN_LAYERS)) {
      if (file.startsWith(layer) && forbidden.some((f) => target === f || target.startsWith(f))) {
        problems.push(`${file}: imports ${target}; ${layer} must not depend on it`);
      }
    }
    if (file.startsWith('src/commands/') && target.startsWith('src/commands/')) {
      const base = file.slice('src/commands/'.length);
      const targetBase = target.slice('src/commands/'.length);
      const group = COMMAND_GROUPS[base];
      if (!COMMAND_SHARED.has(targetBase) && !(group && group.test(targetBase))) {
        problems.push(`${file}: imports the command ${target}; move shared flow down into client/ or config/`);
      }
    }
  }
  const isOutput = file.startsWith('src/output/') || file === 'src/cli.ts' || file.startsWith('src/sandbox/');
  if (!isOutput && /process\.stdout|console\.log/.test(text)) problems.push(`${file}: writes to stdout; only output/ may`);
  if (/console\.(log|error|warn)/.test(text) && !file.startsWith('src/sandbox/')) problems.push(`${file}: console.*; use the Printer`);
  if (/\bparseFloat\(|\bNumber\(\s*\w*(trx|amount|total)\w*\s*\)/i.test(text)) problems.push(`${file}: money through a float?`);
}

for (const path of files(join(root, 'test'))) {
  const file = relative(root, path).split(sep).join('/');
  const text = readFileSync(path, 'utf8');
  for (const match of text.matchAll(/\b(?:it|test|describe)\.(only|skip|todo)\(/g)) problems.push(`${file}: .${match[1]}( left in a test`);
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`lint: ${problem}`);
  console.error(`lint: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log('lint: clean');
