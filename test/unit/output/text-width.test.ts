/**
 * Terminal column widths. The expected widths are literals taken from string-width 9.0.0 on Node 20.20
 * (Unicode 17), installed for the purpose with `npm i --no-save string-width` and not a dependency: the
 * CLI measures with its own code (a library costs ~78 ms of start-up). The code before this table differed
 * from string-width in 17 of these 43 cases: flags, skin tones, ZWJ sequences, a Devanagari half form, VS15
 * on a BMP emoji, the Arabic number sign, Unicode 16's wide hexagrams and trigrams, the Hangul filler.
 */
import { describe, expect, it } from 'vitest';
import { cutToWidth, visibleWidth } from '../../../src/output/text-width.js';

describe('visibleWidth, as string-width 9.0.0 measures', () => {
  it.each([
    ['ascii', 5, 'plain ASCII'],
    ['délivré', 7, 'precomposed Latin'],
    ['e\u0301', 1, 'combining acute'],
    ['🙂ok', 4, 'emoji'],
    ['❤\ufe0f', 2, 'a text symbol made an emoji by VS16'],
    ['❤', 1, 'a text symbol'],
    ['☺\ufe0e', 1, 'VS15: text style'],
    ['⌚\ufe0e', 1, 'a BMP emoji in text style'],
    ['订单已交付', 10, 'CJK'],
    ['ＡＢ', 4, 'fullwidth Latin'],
    ['ｶﾞ', 2, 'halfwidth katakana with dakuten'],
    ['한국', 4, 'Hangul syllables'],
    ['\u1112\u1161\u11ab', 2, 'Hangul jamo, one block'],
    ['a\u200bb', 2, 'zero-width space'],
    ['\u200dx', 1, 'a lone zero-width joiner'],
    ['\x1b[2mdim\x1b[22m', 3, 'SGR escapes'],
    ['', 0, 'empty'],
    ['🇩🇪', 2, 'a flag'],
    ['🇺🇸🇯🇵', 4, 'two flags'],
    ['🇩', 2, 'a lone regional indicator'],
    ['👍🏽', 2, 'skin tone'],
    ['👋🏿x', 3, 'skin tone, then text'],
    ['🏽', 2, 'a lone skin tone'],
    ['👨\u200d👩\u200d👧\u200d👦', 2, 'ZWJ family'],
    ['👨\u200d👩\u200d👧\u200d👦ab', 4, 'ZWJ family, then text'],
    ['👩\u200d💻', 2, 'ZWJ profession'],
    ['🧑🏽\u200d🚀', 2, 'ZWJ with a skin tone'],
    ['🫱🏼\u200d🫲🏿', 2, 'ZWJ handshake, two tones'],
    ['🏳\ufe0f\u200d🌈', 2, 'ZWJ flag with VS16'],
    ['❤\ufe0f\u200d🔥', 2, 'ZWJ heart on fire'],
    ['🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', 2, 'a tag-sequence flag'],
    ['1\ufe0f\u20e3', 2, 'keycap'],
    ['नमस्ते', 4, 'Devanagari with a conjunct'],
    ['हिन्दी', 5, 'Devanagari with spacing vowel signs'],
    ['क\u094d\u200dष', 1, 'Devanagari half form (virama, ZWJ)'],
    ['क्षि', 3, 'Devanagari conjunct with a vowel sign'],
    ['ไทย', 3, 'Thai'],
    ['ภาษาไทย', 7, 'Thai with a mark'],
    ['\u0600١', 2, 'ARABIC NUMBER SIGN before a digit'],
    ['\u4dc0', 2, 'a hexagram (wide since Unicode 16)'],
    ['\u2630', 2, 'a trigram (wide since Unicode 16)'],
    ['\u3164', 0, 'Hangul filler (ignorable)'],
    ['\u00ad', 0, 'soft hyphen'],
  ])('%j takes %i columns (%s)', (text, width) => {
    expect(visibleWidth(text)).toBe(width);
  });
});

describe('cutToWidth', () => {
  it('keeps text that fits', () => {
    expect(cutToWidth('delivered', 9, '…')).toBe('delivered');
  });

  it('cuts to the width with the ellipsis inside it', () => {
    expect(cutToWidth('failed (DELEGATION_FAILED)', 10, '…')).toBe('failed (D…');
    expect(cutToWidth('failed (DELEGATION_FAILED)', 10, '...')).toBe('failed ...');
  });

  it('never splits a wide character', () => {
    const cut = cutToWidth('订单已交付', 6, '…');
    expect(cut).toBe('订单…');
    expect(visibleWidth(cut)).toBe(5);
  });

  it.each([
    ['a ZWJ family', 'ab👨\u200d👩\u200d👧\u200d👦cd', 4, 'ab…'],
    ['a ZWJ family that fits', 'ab👨\u200d👩\u200d👧\u200d👦cd', 5, 'ab👨\u200d👩\u200d👧\u200d👦…'],
    ['a flag', 'x🇩🇪🇫🇷', 4, 'x🇩🇪…'],
    ['a skin tone', 'ok👍🏽👍🏽', 5, 'ok👍🏽…'],
    ['a Devanagari conjunct', 'नमस्ते', 3, 'नम…'],
  ])('cuts between glyphs, never inside one: %s', (_label, text, width, cut) => {
    expect(cutToWidth(text, width, '…')).toBe(cut);
    expect(visibleWidth(cutToWidth(text, width, '…'))).toBeLessThanOrEqual(width);
  });
});
