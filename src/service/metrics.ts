/**
 * A small metrics registry and its Prometheus text exposition (format 0.0.4), written here rather than
 * with a client library: a service exposes a dozen series, and the format is a few lines of text. Values
 * are decimal strings, summed exactly (an amount of TRX never passes through a float on its way out).
 */
import { addDecimals } from '../domain/money.js';

export type Labels = Readonly<Record<string, string>>;
type Kind = 'counter' | 'gauge';

interface Family {
  kind: Kind;
  help: string;
  /** By the labels' exposition text: one series each. */
  series: Map<string, { labels: Labels; value: string }>;
}

/** `"` `\` and line feeds escaped, as the format wants in a label value. */
function labelValue(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** Fraction digits of a decimal's text: `3.900000` has 6. */
function places(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** The exact sum, written with as many fraction digits as the longer of the two (TRX keeps its six). */
function sum(a: string, b: string): string {
  const total = addDecimals(a, b);
  const want = Math.max(places(a), places(b));
  const have = places(total);
  if (have >= want) return total;
  return `${total}${have === 0 ? '.' : ''}${'0'.repeat(want - have)}`;
}

function labelText(labels: Labels): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${labelValue(value)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

export class Metrics {
  readonly #families = new Map<string, Family>();

  /** Declares a counter (its name ends in `_total`); its series start at 0 once first touched. */
  counter(name: string, help: string): void {
    if (!name.endsWith('_total')) throw new Error(`a counter's name ends in _total: ${name}`);
    this.#declare(name, 'counter', help);
  }

  gauge(name: string, help: string): void {
    this.#declare(name, 'gauge', help);
  }

  /** Adds `by` (a non-negative decimal, default 1) to a counter's series. */
  add(name: string, labels: Labels = {}, by = '1'): void {
    const family = this.#family(name, 'counter');
    if (by.startsWith('-')) throw new Error(`a counter only goes up: ${name} by ${by}`);
    const series = this.#series(family, labels);
    series.value = sum(series.value, by);
  }

  set(name: string, labels: Labels, value: string): void {
    this.#series(this.#family(name, 'gauge'), labels).value = value;
  }

  /** Removes a gauge's series (an address no longer watched). */
  drop(name: string, labels: Labels): void {
    this.#family(name, 'gauge').series.delete(labelText(labels));
  }

  /** The exposition: each family's HELP and TYPE, then its series; a family with none is left out. */
  render(): string {
    const lines: string[] = [];
    for (const [name, family] of this.#families) {
      if (family.series.size === 0) continue;
      lines.push(`# HELP ${name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`);
      lines.push(`# TYPE ${name} ${family.kind}`);
      for (const { labels, value } of family.series.values()) lines.push(`${name}${labelText(labels)} ${value}`);
    }
    return `${lines.join('\n')}\n`;
  }

  #declare(name: string, kind: Kind, help: string): void {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`not a metric name: ${name}`);
    if (this.#families.has(name)) throw new Error(`metric declared twice: ${name}`);
    this.#families.set(name, { kind, help, series: new Map() });
  }

  #family(name: string, kind: Kind): Family {
    const family = this.#families.get(name);
    if (family?.kind !== kind) throw new Error(`no ${kind} named ${name}`);
    return family;
  }

  #series(family: Family, labels: Labels): { labels: Labels; value: string } {
    const key = labelText(labels);
    let series = family.series.get(key);
    if (series === undefined) family.series.set(key, (series = { labels, value: '0' }));
    return series;
  }
}
