/** The printer escapes everything it writes: no view can let a server's control or bidi characters through. */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { escapeControls, terminalJson } from '../../../src/domain/printable.js';
import { Printer } from '../../../src/output/printer.js';
import { writeErrorReport } from '../../../src/output/error-report.js';

/** ESC[2J (clear screen), CSI as one C1 byte, BEL, DEL, and every direction mark and override. */
const HOSTILE =
  '\u001b[2J\u009b2J\u0007\u007f\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028';
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

function capture(isTTY = true) {
  const stdout = Object.assign(new PassThrough(), { isTTY });
  const stderr = Object.assign(new PassThrough(), { isTTY });
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const terminal = { stdout, stderr, stdin: Readable.from([]), env: { NO_COLOR: '1' } };
  return { terminal, printer: new Printer(terminal, false), out: () => out, err: () => err };
}

describe('escaping where text leaves', () => {
  it('escapes every table cell and head', async () => {
    const { printer, out } = capture();
    await printer.table({ columns: [{ head: `H${HOSTILE}`, width: 4 }], rows: [[`cell${HOSTILE}`], ['fine']] });
    expect(out()).not.toMatch(RAW);
    expect(out()).toContain('cell\\x1b[2J\\x9b2J\\x07\\x7f\\u{61c}\\u{200e}');
    expect(out()).toContain('\\u{202e}');
  });

  it('escapes key/value labels and values, line breaks included', async () => {
    const { printer, out } = capture();
    await printer.keyValue([[`Label${HOSTILE}`, `value\nenergy: error: forged${HOSTILE}`]]);
    expect(out()).not.toMatch(RAW);
    expect(out().trimEnd().split('\n')).toHaveLength(1);
    expect(out()).toContain('value\\nenergy: error: forged');
  });

  it('escapes notes and status lines on stderr', () => {
    const { printer, err } = capture();
    printer.note(`note${HOSTILE}\nforged`);
    printer.status(`status${HOSTILE}`);
    // The status line's own clear-line escape is the only ESC allowed through.
    expect(err().replaceAll('\r\u001b[K', '')).not.toMatch(RAW);
    expect(err()).toContain('note\\x1b[2J');
    expect(err()).toContain('status\\x1b[2J');
  });

  it('writes JSON with control, C1 and bidi characters as \\u escapes, keeping the data exact', async () => {
    for (const isTTY of [true, false]) {
      const { printer, out } = capture(isTTY);
      const value = { address: `T${HOSTILE}`, [`key${HOSTILE}`]: ['\u202e', 'plain'] };
      await printer.json(value);
      expect(out()).not.toMatch(RAW);
      expect(out()).toContain('\\u202e');
      expect(out()).toContain('\\u009b');
      expect(JSON.parse(out())).toEqual(value);
    }
  });

  it('escapes raw lines but keeps line breaks (NDJSON, one value a line)', async () => {
    const { printer, out } = capture();
    const lines = [{ status: `a${HOSTILE}` }, { status: 'b' }].map((item) => JSON.stringify(item)).join('\n');
    await printer.write(`${lines}\n`);
    expect(out()).not.toMatch(RAW);
    expect(
      out()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([{ status: `a${HOSTILE}` }, { status: 'b' }]);
  });

  it('escapes an error report, in both forms', () => {
    for (const json of [false, true]) {
      const { terminal, err } = capture();
      writeErrorReport(
        terminal,
        { message: `bad${HOSTILE}`, exitCode: 7, hint: `hint${HOSTILE}`, problem: { detail: HOSTILE } },
        { json, verbose: false },
      );
      expect(err()).not.toMatch(RAW);
      if (json)
        expect(JSON.parse(err())).toMatchObject({ error: { message: `bad${HOSTILE}`, problem: { detail: HOSTILE } } });
    }
  });

  it('terminalJson escapes what JSON.stringify leaves raw, and nothing else', () => {
    expect(JSON.stringify('\u202e')).toBe('"\u202e"');
    expect(terminalJson('\u202e\u0085\u007f é ✓')).toBe('"\\u202e\\u0085\\u007f é ✓"');
    expect(terminalJson({ a: 1 }, 2)).toBe('{\n  "a": 1\n}');
  });

  it('escapeControls leaves ordinary text, accents and emoji alone', () => {
    expect(escapeControls('Zürich ✓ 😀 TR7NHq')).toBe('Zürich ✓ 😀 TR7NHq');
    expect(escapeControls('\u200e\u200f\u061c')).toBe('\\u{200e}\\u{200f}\\u{61c}');
  });
});
