/**
 * A borderless table as plain text: each column padded to the wider of its minimum width and its longest
 * cell, two spaces between columns, no trailing spaces. Replaces cli-table3, whose ~34 KB (with emoji-regex
 * and @colors/colors) cost more start-up than the command's request for the one small table we draw.
 */
import { visibleWidth } from './ansi.js';

export interface TextTableSpec {
  head?: readonly string[] | undefined;
  /** Minimum width of each column. */
  widths: readonly number[];
  rows: readonly (readonly string[])[];
  /** Applied to the head cells after padding (e.g. bold). */
  styleHead?: (text: string) => string;
}

const GAP = '  ';

export function renderTable(spec: TextTableSpec): string {
  const all = spec.head === undefined ? spec.rows : [spec.head, ...spec.rows];
  const widths = spec.widths.map((min, column) => Math.max(min, ...all.map((row) => visibleWidth(row[column] ?? ''))));
  const line = (cells: readonly string[], style: (text: string) => string = (text) => text) =>
    cells
      .map((cell, column) => style(cell + ' '.repeat(Math.max(0, (widths[column] ?? 0) - visibleWidth(cell)))))
      .join(GAP)
      .trimEnd();
  const lines = spec.rows.map((row) => line(row));
  if (spec.head !== undefined) lines.unshift(line(spec.head, spec.styleHead));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
