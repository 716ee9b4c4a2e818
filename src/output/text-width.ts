/**
 * How many terminal columns text takes, as string-width (cli-table3's measure) counts them: East Asian wide
 * and fullwidth characters and emoji take two, combining marks, zero-width and format characters none, SGR
 * escapes none, everything else one. Per code point rather than per grapheme (no Intl.Segmenter: its first
 * use loads ICU data); the one sequence that matters in practice, a text symbol made an emoji by VS16
 * (U+FE0F), is counted as two. ASCII, nearly every cell we draw, takes the fast path.
 */

const ESCAPES = /\x1b\[[0-9;]*m/g;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff\u200b]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;
const VARIATION_EMOJI = 0xfe0f;

/** East Asian Wide (W) and Fullwidth (F) blocks, as [first, last] code points. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

function isWide(code: number): boolean {
  for (const [first, last] of WIDE) {
    if (code < first) return false;
    if (code <= last) return true;
  }
  return false;
}

/** Columns one code point takes (`next` is the code point after it, for VS16). */
function charWidth(char: string, next: number | undefined): number {
  const code = char.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (ZERO_WIDTH.test(char)) return 0;
  if (isWide(code) || EMOJI.test(char) || next === VARIATION_EMOJI) return 2;
  return 1;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7e) return false;
  return true;
}

/** Columns a cell takes on screen. */
export function visibleWidth(text: string): number {
  const bare = text.includes('\x1b') ? text.replace(ESCAPES, '') : text;
  if (isAscii(bare)) return bare.length;
  const chars = [...bare];
  let width = 0;
  chars.forEach((char, i) => (width += charWidth(char, chars[i + 1]?.codePointAt(0))));
  return width;
}

/**
 * `text` cut to at most `width` columns, ending with `ellipsis` when cut (never a wide character split in
 * half). Plain text only: cells are cut before they are styled.
 */
export function cutToWidth(text: string, width: number, ellipsis: string): string {
  if (visibleWidth(text) <= width) return text;
  const room = width - visibleWidth(ellipsis);
  if (room <= 0) return ellipsis.slice(0, Math.max(0, width));
  const chars = [...text];
  let used = 0;
  let kept = '';
  for (let i = 0; i < chars.length; i += 1) {
    const w = charWidth(chars[i]!, chars[i + 1]?.codePointAt(0));
    if (used + w > room) break;
    used += w;
    kept += chars[i];
  }
  return kept + ellipsis;
}
