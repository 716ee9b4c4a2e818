/**
 * The only writer to stdout. JSON mode prints exactly one document; readable mode prints key/value blocks
 * and tables, with the small renderers in ansi.ts and text-table.ts (no chalk, no cli-table3: see there).
 * Everything written is escaped here (src/domain/printable.ts), every cell, value, note and JSON string,
 * so that no view can let a server's ESC[2J or U+202E reach the terminal by forgetting to.
 */
import { once } from 'node:events';
import type { Row } from './views.js';
import { styles } from './ansi.js';
import { colorLevel, type Terminal } from './terminal.js';
import { renderTable } from './text-table.js';
import { planFit, fitRow, spills, type Column, type FitPlan } from './fit-table.js';
import { ellipsis, inCharset, utf8Locale } from './charset.js';
import { csvRecord } from './csv.js';
import { escapeControls, escapeInLines, terminalJson } from '../domain/printable.js';

export interface TableSpec {
  columns: readonly Column[];
  rows: readonly (readonly string[])[];
}

/** A table written a page (or a row) at a time: the first write decides the layout, the head comes once. */
export interface TableWriter {
  write: (rows: readonly (readonly string[])[]) => Promise<void>;
}

export class Printer {
  constructor(
    readonly terminal: Terminal,
    readonly jsonMode: boolean,
  ) {}

  /** Whether the locale shows our … → ≥ ’ (readable lines only: --json keeps every character). */
  get utf8(): boolean {
    return utf8Locale(this.terminal.env);
  }

  /** Readable text in the terminal's character set, its control characters escaped. */
  #shown(text: string): string {
    return inCharset(escapeControls(text), this.utf8);
  }

  get colorLevel(): 0 | 1 | 2 | 3 {
    return colorLevel(this.terminal.env, this.terminal.stdout.isTTY);
  }

  /** One JSON document: indented on a terminal, compact in a pipe. */
  async json(value: unknown): Promise<void> {
    await this.#out(`${terminalJson(value, this.terminal.stdout.isTTY ? 2 : undefined)}\n`);
  }

  async keyValue(rows: readonly Row[]): Promise<void> {
    const safe = rows.map(([label, value]) => [this.#shown(label), this.#shown(value)] as const);
    const width = Math.max(...safe.map(([label]) => label.length));
    const { dim } = styles(this.colorLevel);
    await this.#out(safe.map(([label, value]) => `${dim(label.padEnd(width))}  ${value}\n`).join(''));
  }

  /** A whole table: on a terminal sized to its content and fitted to the screen (see fit-table.ts). */
  async table(spec: TableSpec): Promise<void> {
    await this.#tableWriter(spec.columns, false).write(spec.rows);
  }

  /** A table streamed in pieces; on a terminal the first piece decides how it fits the screen. */
  tableWriter(columns: readonly Column[]): TableWriter {
    return this.#tableWriter(columns, true);
  }

  #tableWriter(columns: readonly Column[], streamed: boolean): TableWriter {
    const utf8 = utf8Locale(this.terminal.env);
    const { bold } = styles(this.colorLevel);
    let plan: FitPlan | undefined;
    return {
      write: async (rows) => {
        if (rows.length === 0) return;
        const available = this.#screenWidth();
        const escaped = rows.map((row) => row.map((cell) => inCharset(escapeControls(cell), utf8)));
        const safe = available === undefined ? escaped.map(wordPerCell) : escaped;
        const first = plan === undefined;
        plan ??= planFit(columns, safe, { available, ellipsis: ellipsis(utf8), streamed });
        const shown = plan;
        await this.#out(
          renderTable({
            head: first ? shown.shown.map((index) => escapeControls(columns[index]!.head)) : undefined,
            widths: shown.widths,
            rows: safe.flatMap((row) => fitRow(columns, shown, row)),
            styleHead: bold,
          }),
        );
        for (const line of safe.flatMap((row) => spills(columns, shown, row))) this.note(line);
      },
    };
  }

  /**
   * The columns a table may take: undefined in a pipe (the full form, for scripts); on a terminal, COLUMNS
   * when it is set (as for ls and less), else the terminal's own width, else 80.
   */
  #screenWidth(): number | undefined {
    const stdout = this.terminal.stdout;
    if (stdout.isTTY !== true) return undefined;
    const fromEnv = Number(this.terminal.env.COLUMNS);
    if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
    return stdout.columns !== undefined && stdout.columns > 0 ? stdout.columns : 80;
  }

  /**
   * Writes text made of whole lines (NDJSON, a script, a value per line) to stdout: line breaks and tabs
   * stay, every other unsafe character becomes a \u escape (inside a JSON string: the same character).
   */
  async write(text: string): Promise<void> {
    await this.#out(escapeInLines(text));
  }

  /** Bytes exactly as received (`energy api` into a pipe or file, which is not a terminal): nothing escaped. */
  async bytes(data: Uint8Array): Promise<void> {
    if (!this.terminal.stdout.write(data)) await once(this.terminal.stdout, 'drain');
  }

  /**
   * CSV records (RFC 4180, see csv.ts) on stdout. Each field is escaped like every other line written:
   * control characters other than the line feed become \u escapes; the CRLF record ends stay.
   */
  async csv(records: readonly (readonly string[])[]): Promise<void> {
    await this.#out(records.map((fields) => csvRecord(fields.map(escapeInLines))).join(''));
  }

  /**
   * A line of information on stderr. With --json every stderr line is one JSON object, so that
   * `2>err.ndjson` parses line by line: `{"note":{"message":…}}`, without the `energy: ` prefix, which
   * only tells a reader of a mixed terminal whose line it is.
   */
  note(message: string): void {
    this.#stderrLine('note', message);
  }

  /** A --verbose line (request, response, profile in use): `{"verbose":{"message":…}}` with --json. */
  verbose(message: string): void {
    this.#stderrLine('verbose', message);
  }

  #stderrLine(kind: 'note' | 'verbose', message: string): void {
    this.clearStatus();
    const line = this.jsonMode
      ? terminalJson({ [kind]: { message: message.replace(/^energy: /, '') } })
      : this.#shown(message);
    this.terminal.stderr.write(`${line}\n`);
  }

  /**
   * A progress line that rewrites itself, on a terminal only (nothing in a pipe or a log). Never with
   * --json: a line rewritten in place is not a JSON object, and the results on stdout already show progress.
   */
  status(message: string): void {
    if (this.terminal.stderr.isTTY !== true || this.jsonMode) return;
    this.terminal.stderr.write(`\r\u001b[K${this.#shown(message)}`);
    this.#statusShown = true;
  }

  clearStatus(): void {
    if (!this.#statusShown) return;
    this.terminal.stderr.write('\r\u001b[K');
    this.#statusShown = false;
  }

  #statusShown = false;

  /**
   * Waits when the pipe is full, so that a large listing uses bounded memory. A progress line on the same
   * screen is cleared first, or a row would be written after it.
   */
  async #out(text: string): Promise<void> {
    if (this.terminal.stdout.isTTY === true) this.clearStatus();
    if (!this.terminal.stdout.write(text)) await once(this.terminal.stdout, 'drain');
  }
}

/**
 * A row as a pipe gets it: one word a cell, so that `awk` and `column -t` see whole values. An empty cell
 * is `-`, and spaces inside a value (a status from the server) become `_`; the last column, free text,
 * keeps its spaces: it is the rest of the line.
 */
function wordPerCell(row: readonly string[]): string[] {
  return row.map((cell, index) => (cell === '' ? '-' : index === row.length - 1 ? cell : cell.replace(/\s+/g, '_')));
}
