#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): Node starts a CommonJS file faster than an ES module, and
// `energy --version` is almost all start-up. The entry keeps V8's compiled code of the program in the
// user's private cache folder (src/app/code-cache.ts), not in a shared temporary folder.
'use strict';
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
