/**
 * The Markdown the manual's pages are written in, read into blocks and spans, so that the help topics and the
 * man page's sections can be written from the pages themselves (gh's help topics: one text). The subset is
 * what docs/ uses: headings, paragraphs, `-` and `1.` lists (nested, with code inside), fenced code, pipe
 * tables, and inline code, **bold** and [links](target). Used at build time (scripts/), never at a command's
 * start.
 */

export type Block =
  | { readonly kind: 'heading'; readonly level: number; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: string }
  | { readonly kind: 'code'; readonly lang: string; readonly lines: readonly string[] }
  | { readonly kind: 'list'; readonly items: readonly (readonly Block[])[] }
  | { readonly kind: 'table'; readonly header: readonly string[]; readonly rows: readonly (readonly string[])[] };

export type Span =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'strong'; readonly spans: readonly Span[] }
  | { readonly kind: 'link'; readonly spans: readonly Span[]; readonly href: string };

const HEADING = /^(#{1,6}) +(.*?)#*\s*$/;
const FENCE = /^(`{3,}|~{3,})\s*([\w-]*)/;
const ITEM = /^([-*]|\d+\.) +/;
const COMMENT = /^<!--.*-->\s*$/;

const indentOf = (line: string) => line.length - line.trimStart().length;
const startsBlock = (line: string) =>
  HEADING.test(line) || FENCE.test(line) || line.startsWith('|') || ITEM.test(line) || COMMENT.test(line);

/** The blocks of a page (or of a part of one, or of a list item's lines). */
export function parseBlocks(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '' || COMMENT.test(line.trim())) {
      i += 1;
      continue;
    }
    const heading = HEADING.exec(line);
    const fence = FENCE.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]!.trim() });
      i += 1;
    } else if (fence) {
      const end = lines.findIndex((l, at) => at > i && l.trim().startsWith(fence[1]!));
      if (end < 0) throw new Error(`a code block opened with ${fence[1]} is never closed: ${line}`);
      blocks.push({ kind: 'code', lang: fence[2]!, lines: lines.slice(i + 1, end) });
      i = end + 1;
    } else if (line.startsWith('|')) {
      const end = until(lines, i, (l) => !l.startsWith('|'));
      const [header, , ...rows] = lines.slice(i, end).map(cells);
      blocks.push({ kind: 'table', header: header ?? [], rows });
      i = end;
    } else if (ITEM.test(line)) {
      const { items, next } = listItems(lines, i);
      blocks.push({ kind: 'list', items: items.map(parseBlocks) });
      i = next;
    } else {
      const end = until(lines, i + 1, (l) => l.trim() === '' || startsBlock(l));
      blocks.push({
        kind: 'paragraph',
        text: lines
          .slice(i, end)
          .map((l) => l.trim())
          .join(' '),
      });
      i = end;
    }
  }
  return blocks;
}

function until(lines: readonly string[], from: number, stop: (line: string) => boolean): number {
  let i = from;
  while (i < lines.length && !stop(lines[i]!)) i += 1;
  return i;
}

/** A table row's cells; `\|` is a bar inside a cell (also inside code, as GitHub reads it). */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** A list's items, each as its own lines (the marker and the item's indentation taken off). */
function listItems(lines: readonly string[], from: number): { items: string[][]; next: number } {
  const items: string[][] = [];
  let i = from;
  while (i < lines.length) {
    const marker = ITEM.exec(lines[i]!);
    if (marker === null) break;
    const width = marker[0].length;
    const item = [lines[i]!.slice(width)];
    i += 1;
    let blank = false;
    while (i < lines.length) {
      const line = lines[i]!;
      if (line.trim() === '') {
        blank = true;
        item.push('');
      } else if (indentOf(line) >= 2) {
        item.push(line.slice(Math.min(width, indentOf(line))));
        blank = false;
      } else if (!blank && !startsBlock(line)) item.push(line.trim());
      else break;
      i += 1;
    }
    items.push(item);
    if (blank && (i >= lines.length || !ITEM.test(lines[i]!))) break;
  }
  return { items, next: i };
}

/** The spans of a paragraph's (or a cell's, or a heading's) text. */
export function parseSpans(text: string): Span[] {
  const spans: Span[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') spans.push({ kind: 'text', text: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    const rest = text.slice(i);
    const ticks = /^`+/.exec(rest)?.[0];
    const close = ticks === undefined ? -1 : rest.indexOf(ticks, ticks.length);
    const link = /^\[((?:[^\]`]|`[^`]*`)+)\]\(([^)\s]+)\)/.exec(rest);
    const strong = /^\*\*(.+?)\*\*/.exec(rest);
    if (char === '\\' && /[\\`*_[\]()#|<>!-]/.test(text[i + 1] ?? '')) {
      plain += text[i + 1];
      i += 2;
    } else if (ticks !== undefined && close > 0) {
      flush();
      const inner = rest.slice(ticks.length, close);
      spans.push({ kind: 'code', text: /^ .* $/.test(inner) ? inner.slice(1, -1) : inner });
      i += close + ticks.length;
    } else if (link) {
      flush();
      spans.push({ kind: 'link', spans: parseSpans(link[1]!), href: link[2]! });
      i += link[0].length;
    } else if (strong) {
      flush();
      spans.push({ kind: 'strong', spans: parseSpans(strong[1]!) });
      i += strong[0].length;
    } else {
      plain += ticks ?? char;
      i += ticks?.length ?? 1;
    }
  }
  flush();
  return spans;
}

/**
 * Where a link of `page` (a path from the package's root, docs/service.md) points, as a path from the
 * package's root (docs/ensure.md, README.md) or a URL; undefined for a heading of the same page.
 */
export function linkTarget(href: string, page: string): string | undefined {
  if (href.startsWith('#')) return undefined;
  if (/^[a-z]+:/i.test(href)) return href;
  const parts = [...page.split('/').slice(0, -1), ...href.split('#')[0]!.split('/')];
  const path: string[] = [];
  for (const part of parts) {
    if (part === '..') path.pop();
    else if (part !== '.' && part !== '') path.push(part);
  }
  return path.join('/');
}

/** A link's words, with where it points after them unless they say it already: `Alerts [docs/service.md]`. */
export function linkWords(words: string, href: string, page: string): string {
  // A heading of the same page: the help topic may hold only a part of it.
  const target = linkTarget(href, page) ?? page;
  return words === target || target.endsWith(`/${words}`) ? target : `${words} [${target}]`;
}

/** Spans as plain words (code, bold and links as their words): a table cell in JSON, a heading. */
export function plainText(spans: readonly Span[], page: string): string {
  return spans
    .map((span) => {
      if (span.kind === 'text' || span.kind === 'code') return span.text;
      if (span.kind === 'strong') return plainText(span.spans, page);
      return linkWords(plainText(span.spans, page), span.href, page);
    })
    .join('');
}
