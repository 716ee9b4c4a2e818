/**
 * A table that fits the terminal. In a pipe every table keeps its full form (every column, every value
 * whole, fixed minimum widths so that streamed pages line up), which is what scripts and `grep` want. On a
 * terminal the columns are sized to their content, and when the line is still wider than the screen the
 * table gives way one step at a time, in the order its columns say: a shorter form of a column (an id's
 * first 8 characters, a date as `ls -l` shows it), free text cut with an ellipsis, a column left out. Amounts
 * are never shortened or cut; what is still too wide after every step wraps, as the terminal does.
 */
import { cutToWidth, visibleWidth } from './text-width.js';
import { GAP } from './text-table.js';
import { wrapWords } from './wrap-text.js';

export interface Column {
  head: string;
  /** Minimum width in the full form (a pipe), so that the pages of a streamed table line up. */
  width: number;
  /** At fitting step `step`, each cell is shown in this shorter form. */
  short?: { step: number; form: (cell: string, ellipsis: string) => string };
  /** Free text: from step `cut` on, its width gives way to the other columns, and a longer value is cut. */
  cut?: number;
  /**
   * With `cut`: a value that is cut is also written whole on stderr, one line each, as this says it (a
   * failure's reason, gh's way): what the table leaves out is never lost.
   */
  spill?: (cell: string, row: readonly string[]) => string;
  /** Free text: from step `wrap` on, its width gives way like a cut column's, and a longer value wraps on words. */
  wrap?: number;
  /** At this step the column is left out. */
  drop?: number;
}

/** Which columns a table shows and how, decided once (from the first rows of a streamed table). */
export interface FitPlan {
  /** Indexes of the columns shown, in order. */
  shown: readonly number[];
  /** Per shown column, its minimum width (cells are padded to it). */
  widths: readonly number[];
  /** Per shown column, the width a longer value is cut to; undefined for a column never cut. */
  cutAt: readonly (number | undefined)[];
  shortened: ReadonlySet<number>;
  ellipsis: string;
}

/** A cut column keeps at least this much, so that what is left of a value still says something. */
const CUT_FLOOR = 10;

export interface FitOptions {
  /** The terminal's width; undefined for a pipe (the full form). */
  available: number | undefined;
  ellipsis: string;
  /** A streamed table: later rows are not known yet, so widths keep the columns' minimums. */
  streamed: boolean;
}

export function planFit(
  columns: readonly Column[],
  sample: readonly (readonly string[])[],
  options: FitOptions,
): FitPlan {
  if (options.available === undefined)
    return {
      shown: columns.map((_column, index) => index),
      widths: columns.map((c) => c.width),
      cutAt: [],
      shortened: new Set(),
      ellipsis: options.ellipsis,
    };
  const available = options.available;
  const plan = fitSteps(columns, sample, options, available, false);
  // Too narrow for a streamed table's minimum widths (which line its pages up): size it to its first page.
  return plan.fits || !options.streamed ? plan.plan : fitSteps(columns, sample, options, available, true).plan;
}

/** Takes the columns' steps in order until the table fits `available`, or there are none left. */
function fitSteps(
  columns: readonly Column[],
  sample: readonly (readonly string[])[],
  options: FitOptions,
  available: number,
  relaxed: boolean,
): { plan: FitPlan; fits: boolean } {
  const all = columns.map((_column, index) => index);
  const keepMinimums = options.streamed && !relaxed;
  const shortened = new Set<number>();
  const squeezed = new Set<number>();
  const dropped = new Set<number>();
  // Each column's width in its full and its short form, measured once (a page of 1,000 orders has 8,000 cells).
  const measured = new Map<string, number>();
  const content = (index: number) => {
    const short = shortened.has(index);
    const key = `${index}:${short}`;
    const known = measured.get(key);
    if (known !== undefined) return known;
    const column = columns[index]!;
    let width = visibleWidth(column.head);
    for (const row of sample) {
      const cell = row[index] ?? '';
      width = Math.max(width, visibleWidth(short ? column.short!.form(cell, options.ellipsis) : cell));
    }
    if (keepMinimums && !short) width = Math.max(width, column.width);
    measured.set(key, width);
    return width;
  };
  const shown = () => all.filter((index) => !dropped.has(index));
  const needed = () =>
    shown().reduce(
      (sum, index) => sum + (squeezed.has(index) ? Math.min(content(index), CUT_FLOOR) : content(index)),
      0,
    ) +
    GAP.length * (shown().length - 1);

  const steps = [
    ...new Set(columns.flatMap((c) => [c.short?.step, c.cut, c.wrap, c.drop]).filter((s) => s !== undefined)),
  ];
  for (const step of steps.sort((a, b) => a - b)) {
    if (needed() <= available) break;
    columns.forEach((column, index) => {
      if (column.short?.step === step) shortened.add(index);
      if (column.cut === step || column.wrap === step) squeezed.add(index);
      if (column.drop === step) dropped.add(index);
    });
  }

  const indexes = shown();
  const plan = {
    shown: indexes,
    ...shareOut(columns, indexes, content, available, keepMinimums),
    shortened,
    ellipsis: options.ellipsis,
  };
  return { plan, fits: needed() <= available };
}

/**
 * The final widths: every column but the cut ones as wide as its content; the cut ones share what is left,
 * the narrowest served first, never below CUT_FLOOR. In a streamed table a cut column takes its whole share
 * (its later values are not known yet), else no more than its longest value.
 */
function shareOut(
  columns: readonly Column[],
  indexes: readonly number[],
  content: (index: number) => number,
  available: number,
  streamed: boolean,
): { widths: number[]; cutAt: (number | undefined)[] } {
  const widths = indexes.map(content);
  const cutColumns = indexes.filter((index) => columns[index]!.cut !== undefined || columns[index]!.wrap !== undefined);
  const fixed = indexes.reduce((sum, index, at) => sum + (cutColumns.includes(index) ? 0 : widths[at]!), 0);
  let left = available - fixed - GAP.length * (indexes.length - 1);
  const cutAt: (number | undefined)[] = indexes.map(() => undefined);
  const byContent = [...cutColumns].sort((a, b) => content(a) - content(b));
  byContent.forEach((index, served) => {
    const share = Math.floor(left / (byContent.length - served));
    const width = Math.max(streamed ? share : Math.min(content(index), share), Math.min(content(index), CUT_FLOOR));
    const at = indexes.indexOf(index);
    widths[at] = streamed ? width : Math.min(widths[at]!, width);
    cutAt[at] = width;
    left -= width;
  });
  return { widths, cutAt };
}

/** The cell of column `index` in its shown form (its short form if the plan says so), before any cut. */
function shownCell(columns: readonly Column[], plan: FitPlan, row: readonly string[], index: number): string {
  const cell = row[index] ?? '';
  return plan.shortened.has(index) ? columns[index]!.short!.form(cell, plan.ellipsis) : cell;
}

/** The cells of one row as the plan shows them: one line, or more where a wrapping column wraps. */
export function fitRow(columns: readonly Column[], plan: FitPlan, row: readonly string[]): string[][] {
  const pieces = plan.shown.map((index, at) => {
    const cell = shownCell(columns, plan, row, index);
    const width = plan.cutAt[at];
    if (width === undefined) return [cell];
    return columns[index]!.wrap !== undefined ? wrapWords(cell, width) : [cutToWidth(cell, width, plan.ellipsis)];
  });
  const height = Math.max(1, ...pieces.map((lines) => lines.length));
  return Array.from({ length: height }, (_line, n) => pieces.map((lines) => lines[n] ?? ''));
}

/**
 * The stderr lines for the values of `row` that the plan cuts, or leaves out with their column, in the
 * columns that spill (see Column.spill): an empty cell has nothing to say.
 */
export function spills(columns: readonly Column[], plan: FitPlan, row: readonly string[]): string[] {
  return columns.flatMap((column, index) => {
    const { spill, wrap } = column;
    if (spill === undefined || wrap !== undefined) return [];
    const at = plan.shown.indexOf(index);
    if (at < 0) return (row[index] ?? '') === '' ? [] : [spill(row[index]!, row)];
    const width = plan.cutAt[at];
    if (width === undefined) return [];
    return visibleWidth(shownCell(columns, plan, row, index)) > width ? [spill(row[index] ?? '', row)] : [];
  });
}
