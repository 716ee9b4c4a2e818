#!/usr/bin/env node
// The executable: turn on V8's compile cache where Node has it (22.1 and later), then load the bundle.
// A dynamic import, so that the cache is on before the bundle is compiled.
import module from 'node:module';

module.enableCompileCache?.();
await import('../dist/bin/energy.js');
