/**
 * The Dockerfile read as Docker reads it: its instructions (continuation lines joined, comments left out),
 * each stage's, and the recipe its header comment gives. For dockerfile.test.ts (the file) and
 * dockerfile-entry.test.ts (its ENTRYPOINT run as the image's user).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './manual.js';

export const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');

/** The instructions, continuation lines joined, comments left out. */
export const instructions = dockerfile
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));

/** The instructions of one keyword (`RUN`, `ENV` …), of `among` (default: the whole file). */
export const named = (keyword: string, among: readonly string[] = instructions) =>
  among.filter((line) => line.startsWith(`${keyword} `));

/** The instructions of each stage, FROM first. */
export const stages: string[][] = instructions.reduce<string[][]>((all, line) => {
  if (line.startsWith('FROM ')) all.push([line]);
  else all.at(-1)?.push(line);
  return all;
}, []);

/** An exec-form instruction's words (`ENTRYPOINT ["a", "b"]`). */
export const execForm = (line: string) => JSON.parse(line.slice(line.indexOf('['))) as string[];

/** The header comment's command lines (after `#   `): the recipe users copy. */
export const recipeLines = dockerfile
  .split('\n')
  .filter((line) => line.startsWith('#   '))
  .map((line) => line.slice(4));
