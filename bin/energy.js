#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): Node starts a CommonJS file faster than an ES module, and
// `energy --version` is almost all start-up. The V8 compile cache (Node 22.1+) speeds up the rest.
'use strict';
require('node:module').enableCompileCache?.();
require('../dist/bin/energy.cjs');
