/**
 * How many terminal columns text takes, as string-width 9 counts them: East Asian wide and fullwidth
 * characters and emoji take two, marks, zero-width and default-ignorable characters none, SGR escapes none,
 * everything else one. Counted per glyph, what a terminal draws in one cell or two: a flag (two regional
 * indicators), an emoji with its skin tone, a ZWJ family, a keycap, an Indic conjunct. Glyphs are found by
 * the few rules that matter here, not by Intl.Segmenter (its first use loads ICU data, ~10 ms of a table
 * command's start-up), and a cell is only ever cut between glyphs. ASCII, nearly every cell we draw, takes
 * the fast path.
 */

const ESCAPES = /\x1b\[[0-9;]*m/g;
const ZWJ = 0x200d;
const VS15 = 0xfe0e;
const VS16 = 0xfe0f;
/** Signs written before the digits they span (ARABIC NUMBER SIGN …): visible, and joined to what follows. */
const PREPENDED = /^[\u0600-\u0605\u06dd\u0890\u0891\u08e2\u{110bd}\u{110cd}]$/u;
/**
 * A Unicode property class, made at its first test: V8 builds each from ICU's tables when it parses the
 * pattern (about 1 ms for these, a literal paying it whenever its module is compiled), and ASCII text, the
 * fast path, never tests one. So `balance --json` does not pay for what only a table of wide text needs.
 */
function propertyClass(source: string): { test(text: string): boolean } {
  let made: RegExp | undefined;
  return { test: (text) => (made ??= new RegExp(source, 'u')).test(text) };
}
const ZERO_WIDTH = propertyClass('^[\\p{Default_Ignorable_Code_Point}\\p{Mn}\\p{Me}\\p{Cf}\\p{Cc}]$');
const SPACING_MARK = propertyClass('^\\p{Mc}$');
const EMOJI = propertyClass('^\\p{Emoji_Presentation}$');
const EMOJI_ANY = propertyClass('^\\p{Emoji}$');
const PICTOGRAPHIC = propertyClass('^\\p{Extended_Pictographic}$');
const MODIFIER_BASE = propertyClass('^\\p{Emoji_Modifier_Base}$');
/** The Indic viramas that join two consonants into one conjunct (Unicode's InCB=Linker). */
const VIRAMA = /^[\u094d\u09cd\u0acd\u0b4d\u0c4d\u0d4d]$/u;
const LETTER = propertyClass('^\\p{L}$');

/** East Asian Wide (W) and Fullwidth (F) code points not already emoji, as [first, last] (Unicode 17). */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2630, 0x2637],
  [0x268a, 0x268f],
  [0x2e80, 0x303e],
  [0x3041, 0x3247],
  [0x3250, 0x4dff],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16ff6],
  [0x17000, 0x18d1e],
  [0x18d80, 0x18df2],
  [0x1aff0, 0x1affe],
  [0x1b000, 0x1b2ff],
  [0x1d300, 0x1d376],
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

/** Where a glyph always ends (Unicode's Control): controls, line separators, format characters but ZWNJ, ZWJ and tags. */
const CONTROL = propertyClass('^[\\p{Cc}\\p{Zl}\\p{Zp}\\p{Cf}]$');
const isControl = (char: string, code: number) =>
  CONTROL.test(char) &&
  code !== 0x200c &&
  code !== ZWJ &&
  !(code >= 0xe0020 && code <= 0xe007f) &&
  !PREPENDED.test(char);
const isRegional = (code: number) => code >= 0x1f1e6 && code <= 0x1f1ff;
const isSkinTone = (code: number) => code >= 0x1f3fb && code <= 0x1f3ff;
/** Marks drawn after their base (Mc, Thai and Lao AM, halfwidth dakuten): columns of their own, in its glyph. */
const isSpacingMark = (char: string, code: number) =>
  SPACING_MARK.test(char) || code === 0x0e33 || code === 0x0eb3 || code === 0xff9e || code === 0xff9f;

type Jamo = 'L' | 'V' | 'T' | 'LV' | 'LVT' | undefined;
/** Hangul jamo and syllables: the parts that one syllable block is built of. */
function jamo(code: number): Jamo {
  if ((code >= 0x1100 && code <= 0x115f) || (code >= 0xa960 && code <= 0xa97c)) return 'L';
  if ((code >= 0x1160 && code <= 0x11a7) || (code >= 0xd7b0 && code <= 0xd7c6)) return 'V';
  if ((code >= 0x11a8 && code <= 0x11ff) || (code >= 0xd7cb && code <= 0xd7fb)) return 'T';
  if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28 === 0 ? 'LV' : 'LVT';
  return undefined;
}
/** Whether jamo `after` continues the syllable block that `before` is part of. */
function continuesBlock(before: Jamo, after: Jamo): boolean {
  if (before === 'L') return after !== 'T' && after !== undefined;
  if (before === 'V' || before === 'LV') return after === 'V' || after === 'T';
  return (before === 'T' || before === 'LVT') && after === 'T';
}

/** Columns of a code point that starts a glyph (`next` is the code point after it, for VS15/VS16). */
function baseWidth(char: string, code: number, next: number | undefined): number {
  if (ZERO_WIDTH.test(char)) return 0;
  if (EMOJI.test(char)) return next === VS15 && code < 0x10000 ? 1 : 2;
  if (isWide(code) || (next === VS16 && EMOJI_ANY.test(char))) return 2;
  return 1;
}

interface Glyph {
  text: string;
  width: number;
}

/** `text` as the glyphs a terminal draws, each with its columns. */
function glyphs(text: string): Glyph[] {
  const out: Glyph[] = [];
  const chars = [...text];
  let glyph: Glyph | undefined;
  let base = -1; // the glyph's last visible base code point (an emoji joined by a ZWJ included)
  let prev = -1;
  let join: 'show' | 'hide' | undefined; // the next code point belongs to this glyph (hidden: drawn already)
  let hidden = false; // what follows a joining ZWJ is drawn with what came before it
  let fixed = false; // an emoji or a Hangul block: two columns (or its first jamo's) whatever follows
  let flagOpen = false;
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i]!;
    const code = char.codePointAt(0)!;
    const next = chars[i + 1]?.codePointAt(0);
    let width = 0;
    let starts = false;
    if (glyph !== undefined && join !== undefined) {
      hidden = join === 'hide';
      join = undefined;
      width = hidden ? 0 : baseWidth(char, code, next);
      base = code;
    } else if (code === ZWJ) {
      const following = next === undefined ? '' : String.fromCodePoint(next);
      if (PICTOGRAPHIC.test(following) && PICTOGRAPHIC.test(charOf(base))) {
        // An emoji ZWJ sequence is drawn as one emoji, even when it starts with a text symbol.
        join = 'hide';
        if (glyph !== undefined) glyph.width = Math.max(glyph.width, 2);
      } else if (VIRAMA.test(charOf(prev)) && LETTER.test(following)) join = 'hide';
    } else if (
      code === VS15 ||
      code === VS16 ||
      (ZERO_WIDTH.test(char) && !isControl(char, code) && !PREPENDED.test(char))
    ) {
      // extends the glyph before it, drawing nothing
    } else if (glyph !== undefined && isSpacingMark(char, code)) {
      width = hidden || fixed ? 0 : isWide(code) ? 2 : 1;
    } else if (isSkinTone(code) && prev === base && MODIFIER_BASE.test(charOf(base))) {
      // the tone of the emoji before it
    } else if (isRegional(code) && flagOpen && prev === base) {
      flagOpen = false;
    } else if (jamo(code) !== undefined && prev === base && continuesBlock(jamo(base), jamo(code))) {
      base = code;
    } else {
      starts = true;
      hidden = false;
      base = code;
      flagOpen = isRegional(code);
      width = baseWidth(char, code, next);
      fixed = (width === 2 && EMOJI_ANY.test(char)) || jamo(code) !== undefined;
      if (PREPENDED.test(char)) {
        // One column of its own, unless what it spans is wide enough to hold it.
        join = 'show';
        const spanned =
          next === undefined ? 0 : baseWidth(String.fromCodePoint(next), next, chars[i + 2]?.codePointAt(0));
        width = spanned === 2 ? 0 : 1;
      }
    }
    if (starts || glyph === undefined) {
      glyph = { text: '', width: 0 };
      out.push(glyph);
    }
    glyph.text += char;
    glyph.width += width;
    prev = code;
  }
  return out;
}

const charOf = (code: number) => (code < 0 ? '' : String.fromCodePoint(code));

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7e || text.charCodeAt(i) < 0x20) return false;
  return true;
}

/** Columns a cell takes on screen. */
export function visibleWidth(text: string): number {
  const bare = text.includes('\x1b') ? text.replace(ESCAPES, '') : text;
  if (isAscii(bare)) return bare.length;
  return glyphs(bare).reduce((sum, glyph) => sum + glyph.width, 0);
}

/**
 * `text` cut to at most `width` columns, ending with `ellipsis` when cut, and only ever between glyphs (a
 * wide character, a flag or a ZWJ family stays whole or goes). Plain text only: cells are cut before they
 * are styled.
 */
export function cutToWidth(text: string, width: number, ellipsis: string): string {
  if (visibleWidth(text) <= width) return text;
  const room = width - visibleWidth(ellipsis);
  if (room <= 0 && ellipsis !== '') return ellipsis.slice(0, Math.max(0, width));
  let used = 0;
  let kept = '';
  for (const glyph of glyphs(text)) {
    if (used + glyph.width > room) break;
    used += glyph.width;
    kept += glyph.text;
  }
  return kept + ellipsis;
}
