/**
 * An interrupt never ends as "internal error": a second Ctrl-C (or a command that does not stop within
 * 5 s) exits with the signal's status at once, and Ctrl-C right after Enter at the hidden prompt is 130 or
 * the stored value (exit 0), never exit 1.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, spawnCli, type RunningCli } from '../helpers/cli.js';
import { ADDRESS } from '../helpers/world.js';

let dir: string;
let server: Server;
let requests = 0;
let onRequest: () => void = () => undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'energy-interrupt-'));
  // Answers nothing: the batch's first request stays in flight, and a batch lets it finish on Ctrl-C.
  server = createServer(() => {
    requests++;
    onRequest();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Ctrl-C, then Ctrl-C again every 50 ms until the command exits: the second must come after the first was
 * handled (two sent at once may arrive as one), and when that is cannot be seen from outside.
 */
function secondInterrupt(running: RunningCli): void {
  running.child.kill('SIGINT');
  const again = setInterval(() => running.child.kill('SIGINT'), 50);
  void running.result.finally(() => clearInterval(again));
}

describe('a second interrupt', () => {
  it('exits 130 at once with our own line, not "internal error" exit 1', async () => {
    const file = join(dir, 'batch.csv');
    writeFileSync(file, `${ADDRESS},65000,1h\n`);
    const port = (server.address() as { port: number }).port;
    const env = { ...baseEnv(join(dir, 'cfg')), ENERGY_BASE_URL: `http://127.0.0.1:${port}` };
    const running = spawnCli(['order', 'batch', file, '--yes'], {
      env: { ...env, ENERGY_API_KEY: 'ak_test', ENERGY_API_SECRET: 'sk_test' },
    });
    onRequest = () => secondInterrupt(running);
    const result = await running.result;
    expect(requests).toBeGreaterThan(0);
    expect(result.stderr).not.toMatch(/internal error/);
    expect(result.stderr).toMatch(/SIGINT: stopping now/);
    expect(result.code).toBe(130);
  });

  it('with --json, says so as a JSON note: every stderr line stays one JSON object', async () => {
    const file = join(dir, 'batch-json.csv');
    writeFileSync(file, `${ADDRESS},65000,1h\n`);
    const port = (server.address() as { port: number }).port;
    const env = { ...baseEnv(join(dir, 'cfg')), ENERGY_BASE_URL: `http://127.0.0.1:${port}` };
    const running = spawnCli(['order', 'batch', file, '--yes', '--json'], {
      env: { ...env, ENERGY_API_KEY: 'ak_test', ENERGY_API_SECRET: 'sk_test' },
    });
    onRequest = () => secondInterrupt(running);
    const result = await running.result;
    expect(result.code).toBe(130);
    const lines = result.stderr.trimEnd().split('\n');
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(lines.map((line) => JSON.parse(line) as unknown)).toContainEqual({
      note: { message: 'SIGINT: stopping now, without waiting for the command to finish' },
    });
  });
});

describe('Ctrl-C just after Enter at the hidden secret prompt', () => {
  // Through `script`, a pseudo-terminal: Ctrl-C is the terminal's, sent to the whole process group.
  it.each([0, 20, 40, 60, 80, 120])('at about %i ms: exit 130 or 0, never exit 1', async (delayMs) => {
    const home = mkdtempSync(join(dir, 'pty-'));
    const command = `'${process.execPath}' '${BIN}' config set api-secret`;
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...baseEnv(home), TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let typed = false;
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8');
      if (typed || !/api-secret: /.test(screen)) return;
      typed = true;
      child.stdin.write('sk_test_value\r');
      setTimeout(() => child.stdin.writable && child.stdin.write('\u0003'), delayMs);
    });
    const code = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? -1)));
    expect(screen).not.toMatch(/internal error/);
    expect([0, 130]).toContain(code);
    expect(screen).not.toContain('sk_test_value');
  });
});
