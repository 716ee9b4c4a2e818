#!/usr/bin/env node
// Writes what the bundle carries of other people's code, from esbuild's own account of it (dist/bin/meta.json,
// every build's metafile, written by scripts/bundle.mjs), as gh's script/licenses does from its modules:
// - dist/THIRD_PARTY_NOTICES.md: each bundled package's name, version, licence and licence text;
// - dist/sbom.cdx.json: a CycloneDX SBOM of the same packages, so that a scanner reading the installed package
//   sees pg and commander too (`npm sbom` sees only the dependencies npm installed: decimal.js).
// A package counts when some of its bytes are in an output file (bundled-packages.mjs). A package whose licence text cannot be found
// (a LICENSE/LICENCE/COPYING file, else its README's "License" section) stops the build: a notice is never
// silently missing. The date is the build's (scripts/build-date.mjs), so the same tree writes the same bytes.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDate } from './build-date.mjs';
import { bundledPackages, directPackageDirs } from './bundled-packages.mjs';

const root = new URL('../', import.meta.url);
const rootPath = root.pathname;
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'));

/** The lockfile's SHA-512 of the package's tarball (`integrity`, base64) as CycloneDX's hex hash; none without one. */
function hashes(dir) {
  const integrity = lock.packages?.[dir]?.integrity ?? '';
  const sha512 = /(?:^|\s)sha512-([A-Za-z0-9+/=]+)/.exec(integrity)?.[1];
  return sha512 === undefined ? [] : [{ alg: 'SHA-512', content: Buffer.from(sha512, 'base64').toString('hex') }];
}

function licenceText(dir) {
  const files = readdirSync(join(rootPath, dir))
    .filter((name) => /^(licen[cs]e|copying)(\b|[.-]|$)/i.test(name))
    .sort();
  if (files.length > 0) return files.map((name) => readFileSync(join(rootPath, dir, name), 'utf8').trim()).join('\n\n');
  // Some packages keep the text in their README only (pgpass).
  const readme = readdirSync(join(rootPath, dir)).find((name) => /^readme(\.md)?$/i.test(name));
  const text = readme === undefined ? '' : readFileSync(join(rootPath, dir, readme), 'utf8');
  const section = /^#{1,3} Licen[cs]e\s*\n([\s\S]*?)(?=^#{1,3} |(?![\s\S]))/im.exec(text)?.[1]?.trim();
  if (section !== undefined && /permission|licensed|copyright/i.test(section)) return section;
  throw new Error(`${dir}: no licence text (no LICENSE, LICENCE or COPYING file, no README "License" section)`);
}

const repositoryUrl = (repository) => (typeof repository === 'string' ? repository : repository?.url);
const purl = (name, version) => `pkg:npm/${name.replace(/^@/, '%40')}@${version}`;

const packages = bundledPackages(rootPath).map(({ dir, manifest, outputs }) => {
  if (typeof manifest.license !== 'string') throw new Error(`${dir}: package.json names no licence`);
  return {
    dir,
    name: manifest.name,
    version: manifest.version,
    license: manifest.license,
    text: licenceText(dir),
    outputs,
    repository: repositoryUrl(manifest.repository),
    // A peer dependency is one too (pg-pool uses the pg that loads it).
    dependencies: Object.keys({
      ...manifest.dependencies,
      ...manifest.optionalDependencies,
      ...manifest.peerDependencies,
    }),
    hashes: hashes(dir),
  };
});

const fence = (text) => '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
const notices = [
  '# Third-party notices',
  '',
  `${pkg.name} ${pkg.version} carries code of the packages below in its bundle (\`dist/bin/\`); each is listed with`,
  'its version, its licence and the licence text it is distributed with. The same list, for scanners, is',
  "`dist/sbom.cdx.json` (CycloneDX). Written at build from the bundler's metafile (`scripts/notices.mjs`).",
  '',
  ...packages.flatMap((p) => [
    `## ${p.name} ${p.version}`,
    '',
    `Licence: ${p.license}. In ${p.outputs.map((o) => `\`${o}\``).join(', ')}.`,
    '',
    fence(p.text) + 'text',
    p.text,
    fence(p.text),
    '',
  ]),
].join('\n');

const { date } = buildDate();
const ref = (p) => purl(p.name, p.version);
const rootRef = purl(pkg.name, pkg.version);
const byName = new Map(packages.map((p) => [p.name, p]));
const directDirs = directPackageDirs(rootPath);
const direct = packages.filter((p) => directDirs.has(p.dir));
const bom = {
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  version: 1,
  metadata: {
    timestamp: date.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    tools: { components: [{ type: 'application', name: 'scripts/notices.mjs', version: pkg.version }] },
    component: {
      type: 'application',
      'bom-ref': rootRef,
      name: pkg.name,
      version: pkg.version,
      purl: rootRef,
      licenses: [{ license: { id: pkg.license } }],
    },
  },
  components: packages.map((p) => ({
    type: 'library',
    'bom-ref': ref(p),
    name: p.name,
    version: p.version,
    purl: ref(p),
    ...(p.hashes.length === 0 ? {} : { hashes: p.hashes }),
    licenses: [{ license: { id: p.license } }],
    ...(p.repository === undefined ? {} : { externalReferences: [{ type: 'vcs', url: p.repository }] }),
    properties: p.outputs.map((output) => ({ name: 'energy-cli:bundled-in', value: output })),
  })),
  dependencies: [
    { ref: rootRef, dependsOn: direct.map(ref) },
    ...packages.map((p) => ({
      ref: ref(p),
      dependsOn: p.dependencies.filter((name) => byName.has(name)).map((name) => ref(byName.get(name))),
    })),
  ],
};
// A serial number of the content: the same tree gives the same document (RFC 4122 layout, version 5 bits).
const hex = createHash('sha256').update(JSON.stringify(bom)).digest('hex');
const serialNumber = `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;

if (!existsSync(new URL('dist/', root))) throw new Error('dist/ is missing: run the build');
writeFileSync(new URL('dist/THIRD_PARTY_NOTICES.md', root), notices);
writeFileSync(
  new URL('dist/sbom.cdx.json', root),
  `${JSON.stringify({ bomFormat: bom.bomFormat, specVersion: bom.specVersion, serialNumber, ...bom }, null, 2)}\n`,
);
