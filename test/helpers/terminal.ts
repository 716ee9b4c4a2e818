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
  /** The terminal's width; `script` otherwise makes a 0x0 one (which the CLI reads as unknown). */
  columns?: number,
) {
  return new Promise<{ code: number; screen: string }>((resolve, reject) => {
    const size = columns === undefined ? '' : `stty cols ${columns} rows 50 && `;
    const command = size + [process.execPath, BIN, ...args].map(quote).join(' ');
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
