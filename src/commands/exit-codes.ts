/**
 * `energy help exit-codes` (as `gh help exit-codes`): what each exit status means, for scripts. Also the
 * hidden `energy exit-codes`, and with --json `{"exit_codes":[{"code","meaning"}]}`.
 */
import { Command } from 'commander';
import type { Context } from './context.js';

/** The contract's table in short words; the README's "Exit codes" has the details. */
const EXIT_CODES: readonly (readonly [number, string])[] = [
  [0, 'success'],
  [1, 'unexpected internal error (a bug)'],
  [
    2,
    'usage or invalid input, caught locally or the API said 400, 413 or 415; no consent to spend; a config or state folder others can read',
  ],
  [3, 'authentication: no credentials, or the API (or the TRON node) said 401'],
  [4, 'not found: the API said 404, or no recent order has that short id'],
  [5, 'conflict or refused price: the API said 409, or --max-total was exceeded'],
  [6, 'rate limited: 429 still after the retries'],
  [7, 'service or network: 5xx, connection failure, timeout, a response that breaks the spec'],
  [8, 'the order ended in failure or without delivery (--wait, order wait)'],
  [9, 'some of several items failed, the others stand (order batch, ensure, order recover)'],
  [10, '--wait-timeout ran out before the order was final: the order stands'],
  [11, 'the shared state store (ENERGY_STATE_URL) cannot be reached or refuses: nothing was ordered'],
  [129, 'interrupted by SIGHUP; what was in flight is named on stderr and journaled'],
  [130, 'interrupted by SIGINT (Ctrl-C), as above'],
  [143, 'interrupted by SIGTERM, as above'],
];

/** Help is 80 columns wide (program.ts): the code in 5, the meaning wrapped at word ends in the rest. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

export const EXIT_CODES_HELP = [
  'Exit codes of energy, the same for every command:',
  '',
  ...EXIT_CODES.flatMap(([code, meaning]) =>
    wrap(meaning, 72).map((line, index) => `  ${index === 0 ? String(code).padStart(3) : '   '}  ${line}`),
  ),
  '',
  'With --json, the error is the last line on stderr: {"error":{"exit_code":…}}.',
  '',
].join('\n');

export function exitCodesCommand(ctx: Context): Command {
  return new Command('exit-codes')
    .description('what each exit status means')
    .configureHelp({ formatHelp: () => EXIT_CODES_HELP })
    .action(async () => {
      if (!ctx.printer.jsonMode) return ctx.printer.write(EXIT_CODES_HELP);
      await ctx.printer.json({ exit_codes: EXIT_CODES.map(([code, meaning]) => ({ code, meaning })) });
    });
}
