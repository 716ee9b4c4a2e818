#!/usr/bin/env node
// `prepare`: npm runs it after `npm ci` or `npm install` in a checkout and when it installs this package from
// a git URL (where it runs no `prepack`). It builds only where dist/ is missing (a fresh clone); packing
// builds in `prepack`, so a tarball is always built from the tree as it is. After changing src/ in a
// checkout: `npm run build`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../dist/bin/energy.cjs', import.meta.url))) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { status } = spawnSync(npm, ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exitCode = status ?? 1;
}
