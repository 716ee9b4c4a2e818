/**
 * The two text styles the readable output uses, as SGR escapes. Replaces chalk (its ~8 KB and colour
 * detection loaded for two styles); whether to colour at all is decided by terminal.ts's colorLevel.
 */

export interface Styles {
  bold: (text: string) => string;
  dim: (text: string) => string;
}

const plain = (text: string) => text;

export function styles(colorLevel: number): Styles {
  if (colorLevel === 0) return { bold: plain, dim: plain };
  return { bold: (text) => `\x1b[1m${text}\x1b[22m`, dim: (text) => `\x1b[2m${text}\x1b[22m` };
}

const ESCAPES = /\x1b\[[0-9;]*m/g;

/** Columns a cell takes on screen: escapes take none; each code point counts as one. */
export function visibleWidth(text: string): number {
  const bare = text.includes('\x1b') ? text.replace(ESCAPES, '') : text;
  for (let i = 0; i < bare.length; i += 1) if (bare.charCodeAt(i) > 0x7f) return [...bare].length;
  return bare.length;
}
