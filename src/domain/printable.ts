/**
 * Text from outside (a server's Problem Details, an order's failure message, a value the user typed) made
 * safe to show on a terminal: control characters (ESC, CR, BEL, …) and invisible direction overrides are
 * escaped so that they can neither move the cursor nor hide a line, and a very long value is cut.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/** Escapes control characters, keeping everything else as it is. */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Escapes control characters and cuts the result to `max` characters with an ellipsis. */
export function printable(text: string, max = 200): string {
  const escaped = escapeControls(text);
  const chars = [...escaped];
  return chars.length <= max ? escaped : `${chars.slice(0, max - 1).join('')}…`;
}
