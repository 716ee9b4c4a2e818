/**
 * The physical lines of a batch file, numbered from 1, read as a stream (memory does not grow with the
 * file). Reads what common tools write: a line may end in CRLF (Excel, Python's csv module, Windows
 * editors), its CR taken as part of the line end, and a UTF-8 byte order mark at the very start of the file
 * ("UTF-8 with BOM") is dropped. A CR anywhere else stays in the text, where the line's checks refuse it.
 */
import { UsageError } from '../domain/errors.js';

/**
 * The longest line accepted, in characters (bytes in the spool): a real line (an address, two numbers and
 * a client_request_id) is under 200; the cap keeps a file without newlines (`/dev/zero`) from growing a
 * string, or the spool, without bound.
 */
export const MAX_LINE_LENGTH = 4096;

export interface PhysicalLine {
  number: number;
  text: string;
}

/** Yields every line with its number; a last line without a newline counts, an empty last line does not. */
export async function* readLines(input: AsyncIterable<Uint8Array>, source: string): AsyncGenerator<PhysicalLine> {
  // ignoreBOM keeps a byte order mark in the text: dropped below at the start of the file only.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pending = '';
  let number = 0;
  let first = true;
  const take = (text: string): PhysicalLine => {
    number += 1;
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.length > MAX_LINE_LENGTH) throw tooLong(source, number);
    return { number, text: line };
  };
  for await (const chunk of input) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new UsageError(`${source}, line ${number + 1}: not valid UTF-8: nothing was bought`);
    }
    if (first && text.length > 0) {
      first = false;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    // Only the new text can hold a newline: `pending` has none (a 40 MB line rescanned per chunk was quadratic).
    let start = 0;
    const from = pending.length;
    pending += text;
    for (let newline = pending.indexOf('\n', from); newline !== -1; newline = pending.indexOf('\n', start)) {
      yield take(pending.slice(start, newline));
      start = newline + 1;
    }
    pending = pending.slice(start);
    // One more for the CR of a CRLF line end, which is not the line's.
    if (pending.length > MAX_LINE_LENGTH + 1) throw tooLong(source, number + 1);
  }
  if (pending.length > 0) yield take(pending);
}

export function tooLong(source: string, line: number): UsageError {
  return new UsageError(
    `${source}, line ${line}: longer than ${MAX_LINE_LENGTH} characters (is it a batch file?): nothing was bought`,
  );
}
