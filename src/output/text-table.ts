/**
 * A borderless table as plain text: each column padded to the wider of its minimum width and its longest
 * cell, two spaces between columns, no trailing spaces. Replaces cli-table3, whose ~34 KB (with emoji-regex
 * and @colors/colors) cost more start-up than the command's request for the one small table we draw.
 */
import { visibleWidth } from './text-width.js';

export interface TextTableSpec {
  head?: readonly string[] | undefined;
  /** Minimum width of each column. */
  widths: readonly number[];
  rows: readonly (readonly string[])[];
  /** Applied to the head cells after padding (e.g. bold). */
  styleHead?: (text: string) => string;
}

/** Between two columns (fit-table.ts counts it too). */
export const GAP = '  ';

export function renderTable(spec: TextTableSpec): string {
  const all = spec.head === undefined ? spec.rows : [spec.head, ...spec.rows];
  // Each cell's width once: a streamed page of 1,000 orders has 8,000 of them.
  const cellWidths = all.map((row) => row.map(visibleWidth));
  const widths = spec.widths.map((min) => min);
  for (const row of cellWidths) row.forEach((width, column) => (widths[column] = Math.max(widths[column] ?? 0, width)));
  const line = (cells: readonly string[], cellWidth: readonly number[], style?: (text: string) => string) => {
    let text = '';
    cells.forEach((cell, column) => {
      // The last cell is not padded: spaces at the end of a line, inside a style's escapes, would make a
      // long line of a short one.
      const pad = column === cells.length - 1 ? 0 : (widths[column] ?? 0) - cellWidth[column]!;
      const padded = cell + ' '.repeat(Math.max(0, pad));
      text += (column === 0 ? '' : GAP) + (style === undefined ? padded : style(padded));
    });
    return text.trimEnd();
  };
  let out = '';
  all.forEach((row, index) => {
    out += `${line(row, cellWidths[index]!, spec.head !== undefined && index === 0 ? spec.styleHead : undefined)}\n`;
  });
  return out;
}
