/** Questions on the terminal: a yes/no confirmation and a hidden secret entry; or a secret piped in. */
import { Writable } from 'node:stream';
import { UsageError } from '../domain/errors.js';
import { escapeInLines } from '../domain/printable.js';
import type { Terminal } from './terminal.js';
import { inCharset, utf8Locale } from './charset.js';

/** True only when both ends are a person at a terminal: a prompt in a pipe would hang a script. */
export function canPrompt(terminal: Terminal): boolean {
  return terminal.stdin.isTTY === true && terminal.stderr.isTTY === true;
}

/**
 * Asks one line. Ctrl-D and Ctrl-C end the question with `undefined` rather than leaving it pending: a
 * promise nobody settles would let Node exit 0 as if the command had succeeded.
 */
async function askLine(terminal: Terminal, text: string, hidden: boolean): Promise<string | undefined> {
  const question = inCharset(escapeInLines(text), utf8Locale(terminal.env));
  const { createInterface } = await import('node:readline');
  // Hidden: readline writes (and so echoes) into a stream that drops everything. The interface, and so
  // the terminal's raw mode, exists before the question shows, so that typed-ahead text is hidden too.
  const output = hidden ? new Writable({ write: (_chunk, _encoding, done) => done() }) : terminal.stderr;
  const rl = createInterface({ input: terminal.stdin, output, terminal: true });
  try {
    return await new Promise<string | undefined>((resolve) => {
      rl.once('close', () => resolve(undefined));
      rl.once('SIGINT', () => rl.close());
      if (hidden) terminal.stderr.write(question);
      rl.question(hidden ? '' : question, resolve);
    });
  } finally {
    rl.close();
    if (hidden) terminal.stderr.write('\n');
  }
}

/**
 * The consent question of the order flows (ordering/consent.ts), asked on this terminal; undefined when
 * nobody can answer there (a pipe, a script), so that a flow refuses instead of waiting.
 */
export function confirmOn(terminal: Terminal): ((question: string) => Promise<boolean>) | undefined {
  return canPrompt(terminal) ? (question) => confirm(terminal, question) : undefined;
}

export async function confirm(terminal: Terminal, question: string): Promise<boolean> {
  const answer = await askLine(terminal, `${question} [y/N] `, false);
  return answer !== undefined && /^y(es)?$/i.test(answer.trim());
}

/** Reads a line without echoing it, as `ssh` and `sudo` do. */
export async function askHidden(terminal: Terminal, question: string): Promise<string> {
  const answer = await askLine(terminal, question, true);
  if (answer === undefined) throw new UsageError('nothing entered: nothing was changed');
  return answer;
}

/** The most a piped secret or key may be: real ones are under 200 bytes. */
const MAX_PIPED_VALUE_BYTES = 64 * 1024;

/**
 * All of standard input, with one trailing line break removed (as `echo` and here-strings add one). Stops
 * at the cap (`< /dev/zero` once reached 3.7 GB) and at a signal, so that neither waits for an endless pipe.
 */
export async function readAllStdin(terminal: Terminal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = (): void => {
    terminal.stdin.destroy();
  };
  terminal.interrupt?.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of terminal.stdin) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      size += bytes.length;
      if (size > MAX_PIPED_VALUE_BYTES)
        throw new UsageError(
          `standard input is over ${MAX_PIPED_VALUE_BYTES / 1024} KiB: not a secret; nothing was changed`,
        );
      chunks.push(bytes);
    }
  } catch (error) {
    if (terminal.interrupt?.aborted === true) throw terminal.interrupt.reason;
    throw error;
  } finally {
    terminal.interrupt?.removeEventListener('abort', stop);
  }
  if (terminal.interrupt?.aborted === true) throw terminal.interrupt.reason;
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
