/**
 * What ships tells the truth: the tarball carries the notices of every package the bundle carries (names,
 * versions, licence texts) and a CycloneDX SBOM of them; every file the help and the man pages point at is in
 * it; CHANGELOG.md is in Keep a Changelog form; and package.json, the systemd units and the image name the
 * same places (here: no web address, as none is published). Expected packages are the issue's list, their
 * versions and licence texts read from node_modules, never from the notices' writer.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli, baseEnv } from '../helpers/cli.js';
import { readPage, repoRoot } from '../helpers/manual.js';

const run = promisify(execFile);
const packed = async () => {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot });
  return (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((file) => file.path);
};
const manifest = (name: string) =>
  JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };

/** What issue 40 found bundled without a notice, and decimal.js (dist/bin/vendor/decimal.cjs). */
const BUNDLED = [
  'commander',
  'pg',
  'pg-pool',
  'pg-protocol',
  'pg-types',
  'pgpass',
  'pg-connection-string',
  'postgres-array',
  'postgres-bytea',
  'postgres-date',
  'postgres-interval',
  'xtend',
  'split2',
  'pg-int8',
  'decimal.js',
];

/** Packages that ship their licence in their README only (read by hand from node_modules). */
const README_ONLY: Record<string, string> = {
  pgpass: 'Copyright (c) 2013-2016 Hannes Hörl',
  'pg-types': 'The MIT License (MIT) Copyright (c) 2014 Brian M. Carlson',
};

describe('third-party notices and the SBOM', () => {
  const notices = readFileSync(join(repoRoot, 'dist/THIRD_PARTY_NOTICES.md'), 'utf8');
  const bom = JSON.parse(readFileSync(join(repoRoot, 'dist/sbom.cdx.json'), 'utf8')) as {
    bomFormat: string;
    specVersion: string;
    serialNumber: string;
    metadata: { component: { name: string; version: string } };
    components: { name: string; version: string; purl: string; licenses: { license: { id: string } }[] }[];
    dependencies: { ref: string; dependsOn: string[] }[];
  };

  it.each(BUNDLED)('%s: its name, version and licence text are in the notices', (name) => {
    const { version } = manifest(name);
    const section = notices.split(/^## /m).find((part) => part.startsWith(`${name} ${version}\n`));
    expect(section, `${name} ${version}`).toBeDefined();
    const licence = README_ONLY[name] ?? licenceStart(name);
    expect(section!.replace(/\s+/g, ' ')).toContain(licence.replace(/\s+/g, ' '));
    expect(section).toMatch(/^Licence: (MIT|ISC)\. In `dist\/bin\//m);
  });

  it('lists the same packages as a CycloneDX document a scanner reads', () => {
    expect(bom.bomFormat).toBe('CycloneDX');
    expect(bom.specVersion).toBe('1.5');
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(bom.metadata.component.name).toBe('energy-cli');
    const purls = bom.components.map((c) => c.purl);
    for (const name of BUNDLED) expect(purls).toContain(`pkg:npm/${name}@${manifest(name).version}`);
    expect(bom.components.every((c) => ['MIT', 'ISC'].includes(c.licenses[0]!.license.id))).toBe(true);
    const root = bom.dependencies.find((d) => d.ref.startsWith('pkg:npm/energy-cli@'))!;
    expect(root.dependsOn).toEqual(expect.arrayContaining([`pkg:npm/pg@${manifest('pg').version}`]));
  });

  it('both ship in the package, with CHANGELOG.md and the manual, and not the metafile', async () => {
    const files = await packed();
    for (const file of ['dist/THIRD_PARTY_NOTICES.md', 'dist/sbom.cdx.json', 'CHANGELOG.md', 'docs/service.md'])
      expect(files).toContain(file);
    expect(files).not.toContain('dist/bin/meta.json');
  });
});

function licenceStart(name: string): string {
  const dir = join(repoRoot, 'node_modules', name);
  const file = ['LICENSE', 'LICENSE.md', 'LICENCE.md', 'license', 'LICENSE.txt'].find((candidate) => {
    try {
      readFileSync(join(dir, candidate));
      return true;
    } catch {
      return false;
    }
  })!;
  return readFileSync(join(dir, file), 'utf8').trim().split('\n').slice(0, 3).join('\n');
}

describe('what the help and the man pages point at', () => {
  const env = baseEnv('/nonexistent/energy-ships');
  /** Paths in the package a text names: docs pages, the README, the changelog, the notices. */
  const references = (text: string) =>
    [...text.matchAll(/\b(docs\/[a-z-]+\.md|README\.md|CHANGELOG\.md|dist\/[A-Za-z_.-]+\.(?:md|json))\b/g)].map(
      (m) => m[1]!,
    );

  it('is in the package, for every help topic and man page', async () => {
    const files = await packed();
    const texts = await Promise.all(
      ['environment', 'exit-codes', 'formatting', 'service'].map(
        async (topic) => (await runCli(['help', topic], { env })).stdout,
      ),
    );
    const pkg = JSON.parse(readPage('package.json')) as { man: string[] };
    texts.push(...pkg.man.map((page) => readFileSync(join(repoRoot, page), 'utf8')));
    const named = [...new Set(texts.flatMap(references))];
    expect(named).toEqual(expect.arrayContaining(['docs/service.md', 'docs/fleet.md', 'README.md']));
    expect(named.filter((path) => !files.includes(path))).toEqual([]);
  });

  it('every link of a shipped Markdown page reaches a shipped file', async () => {
    const files = await packed();
    const broken = files
      .filter((file) => file.endsWith('.md') && !file.startsWith('dist/'))
      .flatMap((page) =>
        [
          ...readPage(page)
            .replace(/^```[\s\S]*?^```$/gm, '')
            .matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g),
        ]
          .map((m) => m[1]!)
          .filter((target) => !/^[a-z]+:/.test(target))
          .map((target) => join(page, '..', target).replace(/\/$/, ''))
          // The README points a contributor at CONTRIBUTING.md, which only the source has.
          .filter(
            (path) => !files.some((file) => file === path || file.startsWith(`${path}/`)) && path !== 'CONTRIBUTING.md',
          )
          .map((path) => `${page} -> ${path}`),
      );
    expect(broken).toEqual([]);
  });
});

describe('CHANGELOG.md and the addresses the package names', () => {
  const changelog = readPage('CHANGELOG.md');
  const pkg = JSON.parse(readPage('package.json')) as Record<string, unknown> & { version: string; man: string[] };

  it('is in Keep a Changelog form: Unreleased first, then versions with dates, the package version among them', () => {
    const headings = changelog.split('\n').filter((line) => line.startsWith('## '));
    expect(headings[0]).toBe('## [Unreleased]');
    for (const heading of headings.slice(1)) expect(heading).toMatch(/^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/);
    expect(headings).toContain(`## [${pkg.version}] - ${/## \[[\d.]+\] - (\S+)/.exec(headings[1]!)![1]}`);
    const kinds = changelog.split('\n').filter((line) => line.startsWith('### '));
    expect(kinds.filter((kind) => !/^### (Added|Changed|Deprecated|Removed|Fixed|Security)$/.test(kind))).toEqual([]);
  });

  it('cites nothing a reader cannot look up (no issue numbers), and names the renamed metric label', () => {
    expect(changelog).not.toMatch(/\bissues? \d|#\d+\b|\bthe contract\b/i);
    expect(changelog).toMatch(/label of `energy_ensure_cycles_total` is `result`, no longer `outcome`/);
  });

  it('package.json, the units and the image name no web address, since none is published', () => {
    for (const key of ['repository', 'homepage', 'bugs']) expect(pkg[key], key).toBeUndefined();
    const units = ['energy-ensure.service', 'energy-ensure-health.service', 'energy-ensure-health.timer'].map((unit) =>
      readPage(`deploy/systemd/${unit}`),
    );
    for (const unit of units) {
      const documentation = /^Documentation=(.*)$/m.exec(unit)![1]!.split(' ');
      // man: pages the package installs (package.json "man").
      for (const uri of documentation)
        expect(pkg.man).toContain(`./dist/man/${/^man:([a-z-]+)\(1\)$/.exec(uri)![1]}.1`);
    }
    const labels = readPage('Dockerfile').match(/org\.opencontainers\.image\.[a-z]+="[^"]*"/g)!;
    expect(labels.filter((label) => /https?:/.test(label))).toEqual([]);
  });
});

describe('the build date', () => {
  it('comes from SOURCE_DATE_EPOCH where it is set, else from the version in CHANGELOG.md', async () => {
    const day = async (epoch?: string) => {
      const env = { ...process.env, SOURCE_DATE_EPOCH: epoch ?? '' };
      const script = "import('./scripts/build-date.mjs').then((m) => console.log(m.buildDate().day))";
      return (await run(process.execPath, ['-e', script], { cwd: repoRoot, env })).stdout.trim();
    };
    expect(await day('1700000000')).toBe('2023-11-14');
    const version = (JSON.parse(readPage('package.json')) as { version: string }).version;
    expect(readPage('CHANGELOG.md')).toContain(`## [${version}] - ${await day()}\n`);
  });
});
