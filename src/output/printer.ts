/**
 * The only writer to stdout. JSON mode prints exactly one document; readable mode prints key/value blocks
 * and tables. chalk and cli-table3 are loaded only when a readable view is drawn, so `--json` never pays
 * for them.
 */
import { once } from 'node:events';
import type { Row } from './views.js';
import { colorLevel, type Terminal } from './terminal.js';

export interface TableSpec {
  head: readonly string[];
  /** Minimum width of each column. */
  widths: readonly number[];
  rows: readonly (readonly string[])[];
  /** false for the continuation pages of a streamed table. */
  showHead?: boolean;
}

export class Printer {
  constructor(
    readonly terminal: Terminal,
    readonly jsonMode: boolean,
  ) {}

  get colorLevel(): 0 | 1 | 2 | 3 {
    return colorLevel(this.terminal.env, this.terminal.stdout.isTTY);
  }

  /** One JSON document: indented on a terminal, compact in a pipe. */
  async json(value: unknown): Promise<void> {
    await this.write(`${JSON.stringify(value, null, this.terminal.stdout.isTTY ? 2 : undefined)}\n`);
  }

  async keyValue(rows: readonly Row[]): Promise<void> {
    const width = Math.max(...rows.map(([label]) => label.length));
    const { Chalk } = await import('chalk');
    const chalk = new Chalk({ level: this.colorLevel });
    await this.write(rows.map(([label, value]) => `${chalk.dim(label.padEnd(width))}  ${value}\n`).join(''));
  }

  async table(spec: TableSpec): Promise<void> {
    const [{ default: Table }, { Chalk }] = await Promise.all([import('cli-table3'), import('chalk')]);
    const chalk = new Chalk({ level: this.colorLevel });
    // Widths are minimums (cells padded to them, so that streamed pages line up), never limits: a
    // longer value, an amount above all, is shown whole rather than cut.
    const pad = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(spec.widths[i] ?? 0));
    const table = new Table({
      ...(spec.showHead === false ? {} : { head: pad(spec.head).map((h) => chalk.bold(h)) }),
      wordWrap: false,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2, compact: true },
      chars: BORDERLESS,
    });
    table.push(...spec.rows.map(pad));
    await this.write(`${table.toString().split('\n').map((line) => line.trimEnd()).join('\n')}\n`);
  }

  /** Writes text to stdout, waiting when the pipe is full so that a large listing uses bounded memory. */
  async write(text: string): Promise<void> {
    if (!this.terminal.stdout.write(text)) await once(this.terminal.stdout, 'drain');
  }

  /** A line of progress or information on stderr. */
  note(message: string): void {
    this.clearStatus();
    this.terminal.stderr.write(`${message}\n`);
  }

  /** A progress line that rewrites itself, on a terminal only (nothing in a pipe or a log). */
  status(message: string): void {
    if (this.terminal.stderr.isTTY !== true) return;
    this.terminal.stderr.write(`\r\u001b[K${message}`);
    this.#statusShown = true;
  }

  clearStatus(): void {
    if (!this.#statusShown) return;
    this.terminal.stderr.write('\r\u001b[K');
    this.#statusShown = false;
  }

  #statusShown = false;
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '',
};
