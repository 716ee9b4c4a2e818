/**
 * Blocks of the manual written as a help topic: plain text, 80 columns, as gh prints its topics. A heading
 * stands at the margin and what follows it is indented by two; a table is a list of terms and meanings;
 * code keeps its lines, a shell line too long for the page continued with ` \`.
 */
import { parseSpans, plainText, type Block } from './markdown.js';

/** Code lines are at most this wide, in help and in man pages (whose margin is 7 at 80 columns). */
export const CODE_WIDTH = 68;

/** Words joined into lines of at most `width` columns. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** A word wider than `width` (a metric with its labels) broken after a `|` or `,`, where it has them. */
export function breakWord(word: string, width: number): string[] {
  const parts: string[] = [];
  let rest = word;
  while (rest.length > width) {
    const at = Math.max(rest.lastIndexOf('|', width - 1), rest.lastIndexOf(',', width - 1));
    if (at <= 0) break;
    parts.push(rest.slice(0, at + 1));
    rest = rest.slice(at + 1);
  }
  return [...parts, rest];
}

/** A code block's lines, each shell line longer than `width` continued on the next (` \`, or `# ` in a comment). */
export function codeLines(lines: readonly string[], lang: string, width = CODE_WIDTH): string[] {
  if (!['sh', 'shell', 'bash', ''].includes(lang)) return [...lines];
  return lines.flatMap((line) => (line.length <= width ? [line] : continued(line, width)));
}

function continued(line: string, width: number): string[] {
  const indent = line.slice(0, line.length - line.trimStart().length);
  const out: string[] = [];
  let current = indent;
  let inComment = false;
  for (const word of shellWords(line.trim())) {
    const starts = word.startsWith('#') && !inComment;
    if (current.trim() !== '' && current.length + 1 + word.length > width - 2) {
      out.push(inComment ? current : `${current} \\`);
      current = `${indent}${inComment ? '# ' : '  '}${word}`;
    } else current = current.trim() === '' ? `${current}${word}` : `${current} ${word}`;
    if (starts) inComment = true;
  }
  return [...out, current];
}

/** A shell line's words: a space inside quotes does not split it (a ` \` continues a line inside $( … ) too). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote = '';
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i]!;
    if (quote !== '') {
      word += char;
      if (char === '\\' && quote === '"' && i + 1 < line.length) word += line[(i += 1)];
      else if (char === quote) quote = '';
    } else if (char === ' ') {
      if (word !== '') words.push(word);
      word = '';
    } else if (char === '#' && word === '') {
      // A comment to the end of the line: its quotes are words.
      return [
        ...words,
        ...line
          .slice(i)
          .split(' ')
          .filter((w) => w !== ''),
      ];
    } else {
      if (char === "'" || char === '"') quote = char;
      word += char;
    }
  }
  return word === '' ? words : [...words, word];
}

/** A table as terms and meanings: the meaning beside a term of up to 24 columns, else under it. */
function definitions(rows: readonly (readonly string[])[], indent: string, width: number, page: string): string[] {
  const cells = rows.map((row) => row.map((cell) => plainText(parseSpans(cell), page)));
  // Beside the terms where most fit in 24 columns (variables, codes); under each where most do not (metrics).
  const short = cells.map(([term]) => term!.length).filter((length) => length <= 24);
  const termWidth = short.length * 2 < cells.length ? 2 : Math.max(...short);
  // Numbers (exit codes) stand right-aligned.
  const numeric = cells.every(([term]) => /^\d+$/.test(term!));
  return cells.flatMap(([term, ...rest]) => {
    const meaning = wrap(rest.filter((cell) => cell !== '').join(': '), width - indent.length - termWidth - 2);
    const pad = `${indent}${' '.repeat(termWidth)}  `;
    if (term!.length > termWidth)
      return [
        ...breakWord(term!, width - indent.length).map((part) => `${indent}${part}`),
        ...meaning.map((line) => `${pad}${line}`),
      ];
    const shown = numeric ? term!.padStart(termWidth) : term!.padEnd(termWidth);
    return meaning.map((line, at) => (at === 0 ? `${indent}${shown}  ${line}` : `${pad}${line}`));
  });
}

function blockLines(block: Block, indent: string, width: number, page: string): string[] {
  switch (block.kind) {
    case 'heading':
      return [plainText(parseSpans(block.text), page)];
    case 'paragraph':
      return wrap(plainText(parseSpans(block.text), page), width - indent.length).map((line) => `${indent}${line}`);
    case 'code':
      return codeLines(block.lines, block.lang).map((line) => (line === '' ? '' : `${indent}  ${line}`));
    case 'table':
      return definitions(block.rows, indent, width, page);
    case 'list':
      return block.items.flatMap((item, at) => {
        const lines = blocksLines(item, `${indent}  `, width, page);
        const first = lines.findIndex((line) => line.trim() !== '');
        if (first >= 0) lines[first] = `${indent}- ${lines[first]!.slice(indent.length + 2)}`;
        return at < block.items.length - 1 && block.items.some((i) => i.length > 1) ? [...lines, ''] : lines;
      });
  }
}

function blocksLines(blocks: readonly Block[], indent: string, width: number, page: string): string[] {
  const lines: string[] = [];
  let body = indent;
  for (const block of blocks) {
    if (lines.length > 0) lines.push('');
    if (block.kind === 'heading') body = `${indent}  `;
    lines.push(...blockLines(block, block.kind === 'heading' ? indent : body, width, page));
  }
  return lines;
}

/** Blocks of `page` (docs/service.md) as help text, `width` columns wide, ending in a line break. */
export function renderText(blocks: readonly Block[], page: string, width = 80): string {
  return `${blocksLines(blocks, '', width, page).join('\n')}\n`;
}
