/**
 * The numbers of a JSON object's top level as they are written (`1e5`, `65000.0`, `65000`), by key.
 * JSON.parse gives `1e5` and `100000` as the same number; the batch rule accepts only plain digits, as the
 * command line does, so it needs the text. (JSON.parse's reviver sees the source only from Node 21.)
 * Call it on text that JSON.parse accepted: it does not validate, it only skips strings and nesting.
 */
const COLON = /\s*:/y;
const NUMBER = /-?[0-9.eE+-]+/y;

export function rawTopLevelNumbers(text: string): Map<string, string> {
  const numbers = new Map<string, string>();
  let depth = 0;
  let key: string | undefined;
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      const end = stringEnd(text, i);
      // A string at the top level followed by `:` is a key.
      COLON.lastIndex = end;
      if (depth === 1 && COLON.test(text)) key = JSON.parse(text.slice(i, end)) as string;
      i = end;
    } else if (char === '{' || char === '[') {
      depth += 1;
      i += 1;
    } else if (char === '}' || char === ']') {
      depth -= 1;
      i += 1;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)?.[0] ?? char;
      if (depth === 1 && key !== undefined) numbers.set(key, token);
      i += token.length;
    } else i += 1;
  }
  return numbers;
}

/** The index just after the string that opens at `start` (its escapes skipped). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}
