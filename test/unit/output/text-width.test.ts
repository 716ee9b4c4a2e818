/** Terminal column widths, checked against what string-width (cli-table3's measure) gives for each. */
import { describe, expect, it } from 'vitest';
import { cutToWidth, visibleWidth } from '../../../src/output/text-width.js';

describe('visibleWidth', () => {
  it.each([
    ['ascii', 5],
    ['délivré', 7],
    ['e\u0301', 1], // combining acute: no column of its own
    ['🙂ok', 4],
    ['❤\ufe0f', 2], // a text symbol made an emoji by VS16
    ['❤', 1],
    ['订单已交付', 10],
    ['ＡＢ', 4], // fullwidth Latin
    ['한국', 4],
    ['a\u200bb', 2], // zero-width space
    ['\u200dx', 1], // zero-width joiner
    ['\x1b[2mdim\x1b[22m', 3],
    ['', 0],
  ])('%j takes %i columns', (text, width) => {
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
});
