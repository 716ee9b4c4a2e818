import { describe, expect, it } from 'vitest';
import { styles } from '../../../src/output/ansi.js';
import { renderTable } from '../../../src/output/text-table.js';

describe('renderTable', () => {
  it('pads each column to its minimum or its longest cell, two spaces apart, no trailing spaces', () => {
    const text = renderTable({
      head: ['A', 'BB', 'C'],
      widths: [3, 1, 1],
      rows: [
        ['x', 'long value', 'z'],
        ['xxxxx', 'y', ''],
      ],
    });
    expect(text).toBe(['A      BB          C', 'x      long value  z', 'xxxxx  y', ''].join('\n'));
  });

  it('styles the head without moving the columns, and never pads the last head to the longest value', () => {
    const { bold } = styles(1);
    const text = renderTable({ head: ['ID', 'TOTAL'], widths: [4, 5], rows: [['1', '2.000000']], styleHead: bold });
    const [head, row] = text.split('\n') as [string, string];
    // Padding inside the style's escapes survives the end-of-line trim: doctor's head was as long as its detail.
    expect(head).toBe('\x1b[1mID  \x1b[22m  \x1b[1mTOTAL\x1b[22m');
    expect(head.replace(/\x1b\[\d+m/g, '').indexOf('TOTAL')).toBe(row.indexOf('2.000000'));
  });

  it('lines up by terminal columns: an emoji takes two', () => {
    const text = renderTable({
      widths: [1, 1],
      rows: [
        ['🙂', 'a'],
        ['xyz', 'b'],
      ],
    });
    expect(text).toBe('🙂   a\nxyz  b\n');
  });

  it('prints nothing for no rows and no head', () => {
    expect(renderTable({ widths: [3], rows: [] })).toBe('');
  });
});
