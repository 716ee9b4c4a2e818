/**
 * Text from outside (a server's Problem Details, an order's failure message, a value the user typed) made
 * safe to show on a terminal: control characters (C0, DEL, C1: ESC, CR, BEL, CSI, …) and the invisible
 * direction marks and overrides are escaped so that they can neither move the cursor nor reorder or hide a
 * line, and a very long value is cut. The output layer (src/output/printer.ts) applies it to everything it
 * writes; the JSON form keeps the data exact and writes the same characters as \u escapes.
 */

/** Bidi marks and overrides (LRM, RLM, ALM, LRE…RLO, LRI…PDI) and the Unicode line separators. */
const INVISIBLE = '\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069';
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'gu');
/** The same, less the line break and the tab: for text whose lines are ours (JSON, a script). */
const UNSAFE_IN_LINES = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'gu');

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

function jsonEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
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

/**
 * Text made of whole lines (a JSON document, NDJSON, a shell script): every unsafe character but the line
 * break and the tab becomes a `\uXXXX` escape. Inside a JSON string that is the same character, so JSON
 * stays exact; outside one it is visible text.
 */
export function escapeInLines(text: string): string {
  return text.replace(UNSAFE_IN_LINES, jsonEscape);
}

/**
 * JSON.stringify that a terminal shows as it is: JSON.stringify already escapes C0, but leaves DEL, C1,
 * U+202E and the other direction marks raw, and people read JSON in terminals too.
 */
export function terminalJson(value: unknown, space?: number): string {
  return escapeInLines(JSON.stringify(value, null, space));
}

/**
 * A message ending in a sentence's full stop (a server's detail often does) without it, for one that goes
 * on after it: `…for this test: the order…`, not `…for this test.: the order…`. An ellipsis stays.
 */
export function clause(text: string): string {
  // 。 escaped: one character beyond ASCII in a bundle makes V8 hold its whole source as two-byte text.
  return text.replace(/(?<!\.)[.\u3002]\s*$/u, '');
}
