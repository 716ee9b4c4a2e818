#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): Node starts a CommonJS file faster than an ES module, and
// `energy --version` is almost all start-up. The entry keeps V8's compiled code of the program in the
// user's private cache folder (src/app/code-cache.ts), not in a shared temporary folder.
'use strict';
// First, before anything loads: SIGUSR1 would open Node's inspector on 127.0.0.1:9229 for the rest of the
// process's life (a debugger any local user could attach to a process holding the API secret). A listener
// takes the signal from here on; the program's own (src/app/cli.ts) says it. Node 20 has no switch to turn
// the inspector's signal off: there, only Node's own start-up (about 20-40 ms, before this line) is left.
// Node 22.14+ takes `--disable-sigusr1` (also in NODE_OPTIONS), which closes that too (docs/behaviour.md).
process.on('SIGUSR1', () => {});
const entry = require('node:path').join(__dirname, '../dist/bin/energy.cjs');
try {
  require(entry);
} catch (error) {
  // A checkout that was never built (a git clone, `npm install` from a git URL without prepack) has no
  // dist/: one line saying what to do, not Node's stack trace. Anything else is a real failure.
  if (error?.code !== 'MODULE_NOT_FOUND' || !String(error.message).includes(entry)) throw error;
  process.stderr.write(
    'energy: this checkout is not built: run `npm run build` first (or `npm ci && npm run build`)\n',
  );
  process.exitCode = 1;
}
