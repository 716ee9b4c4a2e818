/**
 * CSV read back as a spreadsheet reads it, with `,` and with `;` as the separator (issue 32): in neither
 * reading may a cell start with a formula character, whatever text a server put in a field.
 */
import { describe, expect, it } from 'vitest';
import { csvRecord } from '../../../src/output/csv.js';

/** A spreadsheet's reading: cells split on `separator`; a `"` opens a quoted cell only at a cell's start. */
function readCells(text: string, separator: ',' | ';'): string[][] {
  const rows: string[][] = [];
  for (const line of text.split('\r\n').filter((row) => row !== '')) {
    const cells: string[] = [];
    let at = 0;
    while (at <= line.length) {
      if (line[at] === '"') {
        let cell = '';
        at += 1;
        while (at < line.length) {
          if (line[at] === '"' && line[at + 1] === '"') {
            cell += '"';
            at += 2;
          } else if (line[at] === '"') {
            at += 1;
            break;
          } else cell += line[at++];
        }
        // What follows a closing quote up to the separator is part of the cell, as spreadsheets take it.
        const end = line.indexOf(separator, at);
        cell += line.slice(at, end === -1 ? line.length : end);
        cells.push(cell);
        at = end === -1 ? line.length + 1 : end + 1;
      } else {
        const end = line.indexOf(separator, at);
        cells.push(line.slice(at, end === -1 ? line.length : end));
        at = end === -1 ? line.length + 1 : end + 1;
      }
    }
    rows.push(cells);
  }
  return rows;
}

const HOSTILE = [
  'ok;=HYPERLINK("http://x.test","click")',
  'a; +1',
  'x;-2+3',
  'y;@SUM(1)',
  '=cmd',
  'a,=b',
  'safe;text',
  '-12.500000',
];

describe('CSV read with either separator', () => {
  const file = csvRecord(['id', 'text']) + HOSTILE.map((text, i) => csvRecord([String(i), text])).join('');

  it.each([',', ';'] as const)('with %j no cell starts with a formula character', (separator) => {
    const cells = readCells(file, separator).flat();
    const formulas = cells.filter((cell) => /^\s*[=+@]/.test(cell) || /^\s*-(?!\d+(\.\d+)?$)/.test(cell));
    expect(formulas).toEqual([]);
  });

  it('with `,` every field reads back as written, but for the guard', () => {
    const texts = readCells(file, ',')
      .slice(1)
      .map((row) => row[1]);
    expect(texts).toEqual([
      `ok;'=HYPERLINK("http://x.test","click")`,
      "a;' +1",
      "x;'-2+3",
      "y;'@SUM(1)",
      "'=cmd",
      'a,=b',
      'safe;text',
      '-12.500000',
    ]);
  });
});
