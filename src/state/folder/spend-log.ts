/**
 * A folder ledger's log read and rewritten in pieces (spend-ledger-file.ts): never the whole file in memory,
 * so that what a process holds does not grow with the log.
 */
import type { FileHandle } from 'node:fs/promises';

const CHUNK = 1 << 22;

/**
 * Calls `line` with each whole line of the file from `from` up to `size` (without its line break); returns
 * where the last whole line ends. A last line without its line break is a write cut short: not a line.
 */
export async function eachLine(
  file: FileHandle,
  from: number,
  size: number,
  line: (text: string) => void | Promise<void>,
): Promise<number> {
  let at = from;
  let carry = Buffer.alloc(0);
  let end = from;
  while (at < size) {
    const bytes = Buffer.alloc(Math.min(CHUNK, size - at));
    const { bytesRead } = await file.read(bytes, 0, bytes.length, at);
    if (bytesRead === 0) break;
    at += bytesRead;
    const piece =
      carry.length === 0 ? bytes.subarray(0, bytesRead) : Buffer.concat([carry, bytes.subarray(0, bytesRead)]);
    const last = piece.lastIndexOf(0x0a) + 1;
    if (last > 0) {
      const text = piece.subarray(0, last).toString('utf8');
      let start = 0;
      for (let next = text.indexOf('\n'); next !== -1; next = text.indexOf('\n', start)) {
        const done = line(text.slice(start, next));
        if (done !== undefined) await done;
        start = next + 1;
      }
    }
    end += last;
    carry = Buffer.from(piece.subarray(last));
  }
  return end;
}

/** Writes lines to a file in pieces: `add` a line (with its line break), then `flush`. */
export function lineWriter(file: FileHandle): { add: (line: string) => Promise<void>; flush: () => Promise<number> } {
  let pending: string[] = [];
  let pendingBytes = 0;
  let written = 0;
  const flush = async () => {
    if (pending.length === 0) return written;
    const bytes = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingBytes = 0;
    await file.write(bytes, 0, bytes.length, written);
    written += bytes.length;
    return written;
  };
  return {
    add: async (text: string) => {
      pending.push(text);
      pendingBytes += text.length;
      if (pendingBytes >= CHUNK) await flush();
    },
    flush,
  };
}
