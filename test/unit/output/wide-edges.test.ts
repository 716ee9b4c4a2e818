/**
 * Terminal widths at the edges the width table and the glyph rules have: the last code point of each East
 * Asian wide range, VS15 after an emoji outside the BMP (it stays two columns: only BMP emoji take the text
 * style), and a Hangul syllable followed by a medial vowel (an LV syllable takes it into its block, an LVT
 * one does not). The expected widths are literals from string-width 9.0.0 on Node 20 (installed for the
 * purpose in a temporary folder, not a dependency), where the two agree.
 */
import { describe, expect, it } from 'vitest';
import { visibleWidth } from '../../../src/output/text-width.js';

describe('the last code point of a wide range is wide', () => {
  it.each([
    ['\u232a', 'RIGHT-POINTING ANGLE BRACKET'],
    ['\u303e', 'IDEOGRAPHIC VARIATION INDICATOR'],
    ['\u3247', 'CIRCLED IDEOGRAPH KOTO'],
    ['\u4dff', 'HEXAGRAM FOR BEFORE COMPLETION'],
    ['\u9fff', 'the last CJK unified ideograph of the BMP block'],
    ['\ud7a3', 'HANGUL SYLLABLE HIH'],
    ['\ufaff', 'the end of the CJK compatibility block'],
    ['\ufe19', 'PRESENTATION FORM FOR VERTICAL HORIZONTAL ELLIPSIS'],
    ['\uff60', 'FULLWIDTH RIGHT WHITE PARENTHESIS'],
    ['\uffe6', 'FULLWIDTH WON SIGN'],
    ['\u{16ff6}', 'the end of the ideographic symbols block'],
    ['\u{18d1e}', 'the end of the Tangut supplement'],
    ['\u{1affe}', 'the end of the Kana extended-B block'],
    ['\u{1d376}', 'the end of the Tai Xuan Jing and counting rods'],
    ['\u{2fffd}', 'the end of plane 2'],
    ['\u{3fffd}', 'the end of plane 3'],
  ])('%j takes 2 columns (%s)', (text) => {
    expect(visibleWidth(text)).toBe(2);
    expect(visibleWidth(`a${text}b`)).toBe(4);
  });
});

describe('VS15 (text style) after an emoji', () => {
  it.each([
    ['😀\ufe0e', 2, 'an emoji outside the BMP keeps two columns'],
    ['🙂\ufe0e', 2, 'another'],
    ['🀄\ufe0e', 2, 'MAHJONG TILE RED DRAGON'],
    ['⌚\ufe0e', 1, 'a BMP emoji takes one'],
  ])('%j takes %i columns (%s)', (text, width) => {
    expect(visibleWidth(text)).toBe(width);
  });
});

describe('a Hangul syllable, then a medial vowel (U+1161)', () => {
  it.each([
    ['\uac00\u1161', 2, 'LV (가) takes the vowel into its block'],
    ['\uac01\u1161', 3, 'LVT (각) does not: the vowel is a glyph of its own'],
    ['\uac00\u11a8', 2, 'LV then a final consonant: one block'],
    ['\uac01\u11a8', 2, 'LVT then a final consonant: one block'],
  ])('%j takes %i columns (%s)', (text, width) => {
    expect(visibleWidth(text)).toBe(width);
  });
});
