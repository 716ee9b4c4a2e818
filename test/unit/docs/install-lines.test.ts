/**
 * Every install line of what ships and what the manual says (README, CONTRIBUTING, docs/, CHANGELOG, the
 * Dockerfile, deploy/, bin/) is one that works: no package of ours is published on the npm registry, so an
 * install by name (`npm install --global energy-cli`) fails today, and installs a stranger's code the day
 * someone publishes that name. What works is the packed checkout (`npm ci && npm install --global "$(npm pack
 * --silent)"`, which scripts/check-package.sh runs for real: install the tarball into a prefix and use it), or
 * a git URL into a project (checked there too).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualPages, readPage, repoRoot } from '../../helpers/manual.js';

/** Files that ship or instruct: the manual, the CHANGELOG, the Dockerfile, the operations files, bin/. */
function instructingFiles(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(repoRoot, dir)).flatMap((name) => {
      const path = `${dir}/${name}`;
      return statSync(join(repoRoot, path)).isDirectory() ? under(path) : [path];
    });
  return [...manualPages(), 'CHANGELOG.md', 'Dockerfile', ...under('deploy'), ...under('bin')];
}

/** A package manager's install command (or npx, which installs what it runs) and what follows it on the line. */
const INSTALL = /\b(npm\s+(?:install|i|add|exec)|pnpm\s+(?:add|install|dlx)|yarn\s+(?:add|dlx)|npx)\b([^`;&|#\n]*)/g;

/** The arguments that name what is installed: flags (and --prefix's folder) left out. */
function specsOf(command: string, rest: string): string[] {
  const words = rest.trim().match(/"[^"]*"|'[^']*'|<[^>]*>|\S+/g) ?? [];
  const specs: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--prefix' || word === '--pack-destination') i += 1;
    else if (!word.startsWith('-')) specs.push(word);
  }
  // npx runs its first argument; the rest are that program's.
  return command === 'npx' ? specs.slice(0, 1) : specs;
}

/** What may be installed: the packed checkout, a tarball or path, a git URL, and Node itself (CI's lines). */
function works(spec: string): boolean {
  return (
    spec === '"$(npm pack --silent)"' ||
    /^"?\$\{?tarball\}?"?$/.test(spec) ||
    spec === '<git URL>' ||
    /^(?:git\+)?(?:https|ssh):\/\/.+\.git$/.test(spec) ||
    /^[./]/.test(spec) ||
    /^"?node@/.test(spec) ||
    // npx of a tool the lockfile installed (never fetched: --no-install where it runs in scripts).
    ['publint', 'attw', 'vitest', 'prettier', 'eslint', 'knip', 'depcruise', 'tsc'].includes(spec)
  );
}

describe('install lines', () => {
  const found = instructingFiles().flatMap((file) =>
    (file.endsWith('.md') ? readPage(file) : readFileSync(join(repoRoot, file), 'utf8'))
      .split('\n')
      .flatMap((line, index) =>
        [...line.matchAll(INSTALL)].map((match) => ({
          at: `${file}:${index + 1}`,
          specs: specsOf(match[1]!, match[2]!),
        })),
      ),
  );

  it('are found where the manual names an install (the README, service.md, the unit)', () => {
    const files = new Set(found.map(({ at }) => at.split(':')[0]));
    expect([...files]).toEqual(
      expect.arrayContaining(['README.md', 'docs/service.md', 'deploy/systemd/energy-ensure.service']),
    );
  });

  it('each installs what works: the packed checkout, a git URL, a path; never a registry name of ours', () => {
    const wrong = found.flatMap(({ at, specs }) => specs.filter((spec) => !works(spec)).map((spec) => `${at} ${spec}`));
    expect(wrong).toEqual([]);
    expect(found.flatMap(({ specs }) => specs)).not.toContain('energy-cli');
  });

  it('the unit and service.md give the packed checkout, the line scripts/check-package.sh runs', () => {
    const packed = 'npm ci && npm install --global "$(npm pack --silent)"';
    for (const file of ['README.md', 'docs/service.md', 'deploy/systemd/energy-ensure.service'])
      expect(readFileSync(join(repoRoot, file), 'utf8'), file).toContain(packed);
    const check = readFileSync(join(repoRoot, 'scripts/check-package.sh'), 'utf8');
    expect(check).toMatch(/tarball=\$\(npm pack --silent/);
    expect(check).toMatch(/npm install --global --prefix "\$prefix" [^\n]*"\$tarball"/);
  });
});
