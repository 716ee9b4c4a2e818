/**
 * `printable` is where text from outside (servers, nodes, files) becomes safe for a terminal: every character
 * that can move the cursor, rewrite a line or reverse what the reader sees is escaped, and a long value is cut.
 */
import { describe, expect, it } from 'vitest';
import { clause, escapeControls, printable } from '../../src/domain/printable.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const hex = (code: number) => code.toString(16).padStart(4, '0').toUpperCase();

describe('printable: characters that must never reach a terminal raw', () => {
  // U+202A-202E: LRE, RLE, PDF, LRO, RLO (RLO makes "exe.txt" read as "txt.exe").
  it.each(range(0x202a, 0x202e).map((code) => [hex(code), code]))(
    'escapes the bidi embedding/override U+%s',
    (_name, code) => {
      const text = `a${String.fromCodePoint(code)}b`;
      expect(printable(text)).toBe(`a\\u{${code.toString(16)}}b`);
    },
  );

  // U+2066-2069: LRI, RLI, FSI, PDI (the isolates of "Trojan Source").
  it.each(range(0x2066, 0x2069).map((code) => [hex(code), code]))('escapes the bidi isolate U+%s', (_name, code) => {
    const text = `a${String.fromCodePoint(code)}b`;
    expect(printable(text)).toBe(`a\\u{${code.toString(16)}}b`);
  });

  // The marks that reorder without embedding: ALM, LRM, RLM.
  it.each([0x061c, 0x200e, 0x200f].map((code) => [hex(code), code]))('escapes the bidi mark U+%s', (_name, code) => {
    expect(printable(`a${String.fromCodePoint(code)}b`)).toBe(`a\\u{${code.toString(16)}}b`);
  });

  // C1 controls: U+009B alone is CSI on many terminals, as ESC [ is; U+0085 is a line break.
  it.each(range(0x80, 0x9f).map((code) => [hex(code), code]))('escapes the C1 control U+%s', (_name, code) => {
    const text = `a${String.fromCodePoint(code)}b`;
    expect(printable(text)).toBe(`a\\x${code.toString(16)}b`);
  });

  it.each([...range(0x00, 0x1f), 0x7f].map((code) => [hex(code), code]))(
    'escapes the C0 control or DEL U+%s',
    (_name, code) => {
      const escaped = printable(`a${String.fromCodePoint(code)}b`);
      expect(escaped).toMatch(/^a\\.+b$/);
      expect(escaped).not.toMatch(/[\u0000-\u001f\u007f]/u);
    },
  );

  it('names line feed, carriage return and tab, and escapes the line and paragraph separators', () => {
    expect(printable('1\n2\r3\t4\u20285\u20296')).toBe('1\\n2\\r3\\t4\\u{2028}5\\u{2029}6');
  });

  it('turns a screen-clearing, title-setting server string into inert text', () => {
    const hostile = '\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202egnp.exe';
    const shown = printable(hostile);
    expect(shown).toBe('\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u{202e}gnp.exe');
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u);
  });

  it('leaves every neighbour of the escaped ranges alone', () => {
    // U+00A0 follows the C1 block, U+2029/202F and U+2065/206A border the bidi ranges; ordinary text stays.
    const neighbours = '\u00a0\u00ff\u2027\u202f\u2065\u206a é ⚡ 能量 🙂 TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    expect(printable(neighbours)).toBe(neighbours);
    expect(escapeControls(neighbours)).toBe(neighbours);
  });
});

describe('printable: the cut', () => {
  it('keeps a text of exactly the limit whole, with no ellipsis', () => {
    const text = 'x'.repeat(200);
    expect(printable(text)).toBe(text);
    expect(printable('abcde', 5)).toBe('abcde');
  });

  it('cuts one character over the limit to the limit, the last being the ellipsis', () => {
    expect(printable('x'.repeat(201))).toBe(`${'x'.repeat(199)}…`);
    expect(printable('abcdef', 5)).toBe('abcd…');
    expect([...printable('abcdef', 5)]).toHaveLength(5);
  });

  it('counts the escaped form, so what reaches the screen is never longer than the limit', () => {
    // "\x1b" is four characters on screen: 2 + 4 = 6 > 5.
    expect(printable('ab\u001b', 6)).toBe('ab\\x1b');
    expect(printable('ab\u001b', 5)).toBe('ab\\x…');
  });

  it('counts code points, never splitting a surrogate pair', () => {
    expect(printable('🙂🙂🙂', 3)).toBe('🙂🙂🙂');
    expect(printable('🙂🙂🙂🙂', 3)).toBe('🙂🙂…');
  });

  it('escapeControls never cuts', () => {
    const long = `${'y'.repeat(1000)}\u202e`;
    expect(escapeControls(long)).toBe(`${'y'.repeat(1000)}\\u{202e}`);
  });
});

describe('clause', () => {
  it.each([
    ['for this test.', 'for this test'],
    ['for this test. ', 'for this test'],
    ['no stop', 'no stop'],
    ['an ellipsis...', 'an ellipsis...'],
    ['完了。', '完了'],
  ])('%j → %j', (text, expected) => {
    expect(clause(text)).toBe(expected);
  });
});
