/**
 * The README stays a start (at most 300 lines) and links every page of the manual; every link between the
 * pages reaches a file that exists and, with a `#fragment`, a heading that exists (as GitHub makes anchors).
 */
import { existsSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualPages, readPage, repoRoot } from '../../helpers/manual.js';

/** GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function headings(markdown: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const match = /^#{1,6} (.*)$/.exec(line);
    if (!fenced && match) found.add(anchorOf(match[1]!));
  }
  return found;
}

/** The targets of the page's markdown links, outside code blocks and code spans. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

describe('the README', () => {
  const readme = readPage('README.md');

  it('is at most 300 lines', () => {
    expect(readme.split('\n').length - 1).toBeLessThanOrEqual(300);
  });

  it('links every page of docs/ and CONTRIBUTING.md', () => {
    const linked = new Set(links(readme).map((target) => target.split('#')[0]));
    const pages = manualPages().filter((page) => page !== 'README.md');
    expect(pages.length).toBeGreaterThanOrEqual(10);
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('starts with the two commands a newcomer runs', () => {
    const firstBlock = /^```sh\n([\s\S]*?)^```$/m.exec(readme)![1]!;
    expect(firstBlock).toContain('npm ci && npm run demo');
    expect(firstBlock).toContain('npm test');
  });
});

describe('links between the pages of the manual', () => {
  it.each(manualPages())('%s: every relative link reaches a file and a heading that exist', (page) => {
    const broken: string[] = [];
    for (const target of links(readPage(page))) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, fragment] = target.split('#') as [string, string | undefined];
      const file = path === '' ? page : normalize(join(dirname(page), path));
      if (!existsSync(join(repoRoot, file)) || relative(repoRoot, join(repoRoot, file)).startsWith('..')) {
        broken.push(`${target} (no file ${file})`);
        continue;
      }
      if (fragment !== undefined && !headings(readPage(file)).has(fragment)) {
        broken.push(`${target} (no heading #${fragment} in ${file})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
