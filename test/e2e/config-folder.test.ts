/** A config folder that cannot be made (under /proc, Node 20's recursive mkdir spins there): exit 2, at once. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { BIN, baseEnv } from '../helpers/cli.js';
import { describeWhere } from '../helpers/machine-needs.js';

function runWithDeadline(
  args: string[],
  env: Record<string, string>,
  ms: number,
): Promise<{ code: number | null; stderr: string; killed: boolean }> {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, ms);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, killed });
    }),
  );
}

describeWhere('/proc', existsSync('/proc/self'), 'a config folder under /proc', () => {
  it('is refused with exit 2 and one line instead of spinning', async () => {
    const dir = '/proc/energy-test-no-such/config';
    const result = await runWithDeadline(
      ['config', 'set', 'base-url', 'https://api.example.com'],
      baseEnv(dir),
      15_000,
    );
    expect(result.killed).toBe(false);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `energy: error: cannot create the config folder ${dir}: no such folder, and none can be made there`,
    );
  });
});
