/** Questions on the terminal: a yes/no confirmation and a hidden secret entry; or a secret piped in. */
import type { Terminal } from './terminal.js';

/** True only when both ends are a person at a terminal: a prompt in a pipe would hang a script. */
export function canPrompt(terminal: Terminal): boolean {
  return terminal.stdin.isTTY === true && terminal.stderr.isTTY === true;
}

export async function confirm(terminal: Terminal, question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: terminal.stdin, output: terminal.stderr, terminal: true });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(`${question} [y/N] `, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** Reads a line without echoing it, as `ssh` and `sudo` do. */
export async function askHidden(terminal: Terminal, question: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  // The interface (and so the terminal's raw mode) comes before the question: text typed or pasted the
  // moment the question shows must already be hidden.
  const rl = createInterface({ input: terminal.stdin, output: terminal.stderr, terminal: true });
  // Swallow readline's echo of the typed characters.
  (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => undefined;
  terminal.stderr.write(question);
  try {
    return await new Promise<string>((resolve) => rl.question('', resolve));
  } finally {
    rl.close();
    terminal.stderr.write('\n');
  }
}

/** All of standard input, with one trailing line break removed (as `echo` and here-strings add one). */
export async function readAllStdin(terminal: Terminal): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of terminal.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}
