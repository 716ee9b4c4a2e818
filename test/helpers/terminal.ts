/**
 * Runs the CLI under a real pseudo-terminal (util-linux `script`), answering each prompt when it appears,
 * so that tests see what a person at a terminal sees.
 */
import { spawn } from 'node:child_process';
import { BIN } from './cli.js';

export interface TerminalStep {
  /** Wait until the screen so far matches this… */
  when: RegExp;
  /** …then type this (end with \r for Enter). */
  type: string;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function runInTerminal(
  args: readonly string[],
  env: Record<string, string | undefined>,
  steps: TerminalStep[] = [],
) {
  return new Promise<{ code: number; screen: string }>((resolve, reject) => {
    const command = [process.execPath, BIN, ...args].map(quote).join(' ');
    const cleanEnv = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...cleanEnv, TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    const pending = [...steps];
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8');
      while (pending[0] !== undefined && pending[0].when.test(screen)) child.stdin.write(pending.shift()!.type);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code: code ?? -1, screen });
    });
  });
}
