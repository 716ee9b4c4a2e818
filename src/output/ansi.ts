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
