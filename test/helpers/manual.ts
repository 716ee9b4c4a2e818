/**
 * The manual: the README, CONTRIBUTING.md and the pages under docs/. Tests that hold a recipe or a rule of
 * the manual read it from here, wherever the page it lives on is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Repository-relative paths of every page of the manual, the README first. */
export function manualPages(): string[] {
  const docs = readdirSync(`${repoRoot}docs`)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs];
}

export function readPage(page: string): string {
  return readFileSync(`${repoRoot}${page}`, 'utf8');
}

/** Every page, one after another. */
export function manualText(): string {
  return manualPages()
    .map((page) => readPage(page))
    .join('\n');
}
