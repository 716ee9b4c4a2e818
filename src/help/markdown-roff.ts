/**
 * Blocks of the manual written as roff for a man page section (scripts/man.mjs): paragraphs filled by man
 * itself at the reader's width, code with its lines kept (shell lines continued as in help), tables as
 * tagged paragraphs. Plain ASCII out: other characters as \[uXXXX].
 */
import { linkWords, parseSpans, type Block, type Span } from './markdown.js';
import { codeLines } from './markdown-text.js';

/** Text made safe for roff: backslashes, a dot or quote at the start of a line, characters beyond ASCII. */
export function roffText(value: string): string {
  return value
    .replace(/\\/g, '\\e')
    .replace(/^([.'])/gm, '\\&$1')
    .replace(/[^\x00-\x7f]/gu, (char) => `\\[u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** Option names and commands, where a hyphen is a real minus (copy-paste from the page works). */
export function roffLiteral(value: string): string {
  return roffText(value).replace(/-/g, '\\-');
}

function spansRoff(spans: readonly Span[], page: string): string {
  return spans
    .map((span) => {
      if (span.kind === 'text') return roffText(span.text);
      if (span.kind === 'code') return `\\fB${roffLiteral(span.text)}\\fR`;
      if (span.kind === 'strong') return `\\fB${spansRoff(span.spans, page).replace(/\\f[BR]/g, '')}\\fR`;
      const inner = spansRoff(span.spans, page);
      const plain = span.spans.map((s) => (s.kind === 'text' || s.kind === 'code' ? s.text : '')).join('');
      const words = linkWords(plain, span.href, page);
      return words === plain
        ? inner
        : words.startsWith(`${plain} [`)
          ? `${inner}${roffText(words.slice(plain.length))}`
          : roffText(words);
    })
    .join('');
}

/** A line of filled text: roff must not read its start as a request. */
const line = (text: string, page: string) => spansRoff(parseSpans(text), page).replace(/^([.'])/, '\\&$1');

function blockRoff(block: Block, page: string, inList: boolean): string[] {
  switch (block.kind) {
    case 'heading':
      return ['.SS', line(block.text, page)];
    case 'paragraph':
      return [inList ? '.IP "" 2' : '.PP', line(block.text, page)];
    case 'code':
      return [
        inList ? '.IP "" 2' : '.PP',
        '.RS 2',
        '.nf',
        ...codeLines(block.lines, block.lang).map((code) => roffText(code)),
        '.fi',
        '.RE',
      ];
    case 'table':
      return [
        ...(inList ? ['.RS 2'] : []),
        ...block.rows.flatMap(([term, ...rest]) => [
          '.TP',
          // \: lets a long term (a metric with its labels) break after a | or , where man has no room.
          `\\fB${line(term!, page)
            .replace(/\\f[BR]/g, '')
            .replace(/([|,])/g, '$1\\:')}\\fR`,
          line(rest.filter((cell) => cell !== '').join(': '), page),
        ]),
        ...(inList ? ['.RE'] : []),
      ];
    case 'list':
      return [
        ...(inList ? ['.RS 2'] : []),
        ...block.items.flatMap((item) =>
          item.flatMap((inner, at) =>
            at === 0 && inner.kind === 'paragraph'
              ? ['.IP \\(bu 2', line(inner.text, page)]
              : blockRoff(inner, page, true),
          ),
        ),
        ...(inList ? ['.RE'] : []),
      ];
  }
}

/** Blocks of `page` (docs/service.md) as the lines of a man page section. */
export function renderRoff(blocks: readonly Block[], page: string): string[] {
  return blocks.flatMap((block) => blockRoff(block, page, false));
}
