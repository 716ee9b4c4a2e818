/** Spawns the real `bin/energy.js` (built) with a clean environment and collects what it prints. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
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
  /** What starts the CLI instead of `node bin/energy.js` (an image's entry, another user's Node): program first. */
  launch?: readonly string[];
}

/** Only what the CLI needs: no ENERGY_* leaks in from the developer's shell. */
export function baseEnv(configDir: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: configDir, ENERGY_CONFIG_DIR: configDir, NO_COLOR: '1', TZ: 'UTC' };
}

export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return spawnCli(args, options).result;
}

export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  /** What the child has written so far. */
  output(): { stdout: string; stderr: string };
  result: Promise<CliResult>;
}

/** Like runCli, with the child in hand: for tests that send it signals mid-run. A signal death is 128 + n. */
export function spawnCli(args: readonly string[], options: RunOptions = {}): RunningCli {
  const env = Object.fromEntries(Object.entries(options.env ?? {}).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
  const [program, ...first] = options.launch ?? [process.execPath, BIN];
  const child = spawn(program!, [...first, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const output = () => ({
    stdout: Buffer.concat(stdout).toString('utf8'),
    stderr: Buffer.concat(stderr).toString('utf8'),
  });
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const signalNumbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
      resolve({ code: code ?? (signal === null ? -1 : 128 + (signalNumbers[signal] ?? 0)), ...output() });
    });
  });
  child.stdin.end(options.input ?? '');
  return { child, output, result };
}
