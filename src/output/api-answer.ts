/** `energy api`'s answer on stdout, as gh api writes it. */
import type { Printer } from './printer.js';

/** A pipe gets the bytes untouched; a terminal gets them escaped, ending with a line break. */
export async function writeApiAnswer(printer: Printer, body: Buffer): Promise<void> {
  if (printer.terminal.stdout.isTTY !== true) return printer.bytes(body);
  const text = body.toString('utf8');
  await printer.write(text === '' || text.endsWith('\n') ? text : `${text}\n`);
}
