/** The batch line reader: lines split across any chunks, and a cap on a line's length (issue 17, item 21). */
import { describe, expect, it } from 'vitest';
import { MAX_LINE_LENGTH, readLines } from '../../../src/batch/line-reader.js';
import { UsageError } from '../../../src/domain/errors.js';

async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collect(text: string, size: number): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of readLines(chunks(text, size), 'f.csv')) lines.push(`${line.number}:${line.text}`);
  return lines;
}

describe('readLines', () => {
  it('finds every line whatever the chunk size, a line split over many chunks included', async () => {
    const long = 'x'.repeat(MAX_LINE_LENGTH);
    const text = `a\n\nbb\n${long}\nlast`;
    for (const size of [1, 2, 3, 7, 64, 100_000])
      expect(await collect(text, size)).toEqual(['1:a', '2:', '3:bb', `4:${long}`, '5:last']);
  });

  it('refuses a line longer than the cap, naming it, whether or not a newline ever comes', async () => {
    const over = 'x'.repeat(MAX_LINE_LENGTH + 1);
    for (const text of [`ok\n${over}\nnext\n`, `ok\n${over}`, `ok\n${over}${'y'.repeat(100_000)}`]) {
      for (const size of [1_000, 65_536]) {
        const error = await collect(text, size).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(UsageError);
        expect((error as Error).message).toBe(
          `f.csv, line 2: longer than ${MAX_LINE_LENGTH} characters (is it a batch file?): nothing was bought`,
        );
      }
    }
  });

  it('reads CRLF line ends (Excel, Python csv) and drops a UTF-8 byte order mark at the start', async () => {
    for (const size of [1, 2, 5, 64])
      expect(await collect('\uFEFFaddress,energy\r\nT1,2\r\n\r\nlast\r\n', size)).toEqual([
        '1:address,energy',
        '2:T1,2',
        '3:',
        '4:last',
      ]);
    // A CR inside a line, or a second one, is the line's own text: its checks refuse it.
    expect(await collect('a\rb\r\r\n\uFEFFx\n', 3)).toEqual(['1:a\rb\r', '2:\uFEFFx']);
  });
});
