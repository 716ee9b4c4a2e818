/**
 * No install depends on npm's default for dependencies' install scripts, which npm 11 announces will change
 * (it runs them with a warning, "not yet covered by allowScripts"; a later npm will not run them at all):
 * - every package of the lockfile with an install script is named in package.json's `allowScripts`;
 * - `.ci/run` installs each Node line's `node` package (whose install script puts the binary in place) into a
 *   prefix whose own package.json allows that script, written before the install.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../../helpers/manual.js';

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

it("every lockfile package with an install script is in package.json's allowScripts", () => {
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { hasInstallScript?: boolean; version?: string }>;
  };
  const withScripts = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript === true)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  expect(withScripts.length).toBeGreaterThan(0);
  const allowed = (JSON.parse(read('package.json')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
  const names = new Set(Object.keys(allowed).map((key) => key.replace(/(?<=.)@[^@]*$/, '')));
  expect(withScripts.filter((name) => !names.has(name))).toEqual([]);
  expect(Object.values(allowed).every((value) => typeof value === 'boolean')).toBe(true);
});

it(".ci/run allows the node package's install script in each prefix before it installs a Node line", () => {
  const lines = read('.ci/run').split('\n');
  const install = lines.findIndex((line) => /npm install --prefix "\$nodes_dir\/\$line"[^\n]*"node@\$line"/.test(line));
  expect(install).toBeGreaterThan(0);
  const written = lines.findIndex((line) => line.includes('>"$nodes_dir/$line/package.json"'));
  expect(written).toBeGreaterThan(0);
  expect(written).toBeLessThan(install);
  const json = /printf '([^']*)\\n'/.exec(lines[written]!)?.[1];
  expect(JSON.parse(json!)).toEqual({ private: true, allowScripts: { node: true } });
});
