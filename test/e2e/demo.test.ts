/**
 * `npm run demo` says it works in a throwaway folder: its fake orders must not reach the user's real state
 * folder (~/.local/state/energy, kept 30 days), nor its profile the user's config.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const demo = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'energy-demo-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('npm run demo', () => {
  it('runs end to end and leaves nothing in the home folder', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    for (const name of ['XDG_STATE_HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'ENERGY_STATE_DIR', 'ENERGY_CONFIG_DIR'])
      delete env[name];
    const child = spawn(process.execPath, [demo], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, output).toBe(0);
    expect(output).toContain('order create');
    expect(existsSync(join(home, '.local', 'state', 'energy')), readdirSync(home).join(', ')).toBe(false);
    expect(readdirSync(home)).toEqual([]);
  }, 60_000);
});
