/** Spawns the real `bin/energy.js` (built) with a clean environment and collects what it prints. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/energy.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed; stdin is always a pipe, never a terminal. */
  input?: string;
}

/** Only what the CLI needs: no ENERGY_* leaks in from the developer's shell. */
export function baseEnv(configDir: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: configDir, ENERGY_CONFIG_DIR: configDir, NO_COLOR: '1', TZ: 'UTC' };
}

export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(Object.entries(options.env ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({
        code: code ?? (signal === null ? -1 : 128),
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
    child.stdin.end(options.input ?? '');
  });
}
