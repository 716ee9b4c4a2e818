/**
 * Free text broken into lines of at most `width` columns at spaces, as a reader expects. A word wider than
 * a line (a path, a URL) is broken after its last `/` (or `-`, `_`, `.`, `:`, `,`) that fits, else between
 * glyphs: it could not fit any other way.
 */
import { cutToWidth, visibleWidth } from './text-width.js';

export function wrapWords(text: string, width: number): string[] {
  if (visibleWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (visibleWidth(joined) <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (visibleWidth(line) > width) {
      const head = breakWord(line, width);
      if (head === '') break;
      lines.push(head);
      line = line.slice(head.length);
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The longest start of `word` within `width`, ending after a separator when one is in it. */
function breakWord(word: string, width: number): string {
  const head = cutToWidth(word, width, '');
  const separator = Math.max(...['/', '-', '_', '.', ':', ','].map((mark) => head.lastIndexOf(mark)));
  return separator > 0 ? head.slice(0, separator + 1) : head;
}
