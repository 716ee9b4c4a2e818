/**
 * A checkout that was never built (a fresh clone; `npm install` from a git URL before prepack existed) has
 * bin/ but no dist/: the executable says what to do in one line instead of Node's MODULE_NOT_FOUND stack.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { STACK_FRAME } from '../helpers/e2e.js';

const bin = fileURLToPath(new URL('../../bin', import.meta.url));
const checkout = mkdtempSync(join(tmpdir(), 'energy-unbuilt-'));
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

describe('an unbuilt checkout', () => {
  it('says to run the build, in one line, exit 1, no stack trace', () => {
    cpSync(bin, join(checkout, 'bin'), { recursive: true });
    const result = spawnSync(process.execPath, [join(checkout, 'bin', 'energy.js'), 'balance'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'energy: this checkout is not built: run `npm run build` first (or `npm ci && npm run build`)\n',
    );
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('still shows a real failure inside the bundle as it is (only a missing bundle is explained away)', () => {
    cpSync(bin, join(checkout, 'bin'), { recursive: true });
    cpSync(fileURLToPath(new URL('../../package.json', import.meta.url)), join(checkout, 'package.json'));
    const bundle = join(checkout, 'dist', 'bin');
    cpSync(fileURLToPath(new URL('../../dist/bin/energy.cjs', import.meta.url)), join(bundle, 'energy.cjs'));
    // energy.cjs is there, light.cjs is not: a broken build, not an unbuilt checkout. The entry loads the
    // bundle itself, outside any command: its failure is said as an internal error, without a stack trace.
    const result = spawnSync(process.execPath, [join(checkout, 'bin', 'energy.js'), 'balance'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: checkout },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).not.toContain('this checkout is not built');
    expect(result.stderr).toMatch(/^energy: error: internal error: Cannot find module '.*light\.cjs'/);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });
});
